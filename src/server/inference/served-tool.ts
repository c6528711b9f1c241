// What the providers need of the tools: how each provider serves a tool (its labelled demo output,
// its Replicate model, its local engine). The tool modules give it (tools/<tool-id>/index.ts,
// through defineServerTool, which adapts each tool's own input type to these) and the composition
// (system.ts, engine-main.ts) hands the registry's list to each provider when it makes it: nothing
// in inference/ imports a tool.
import type { ToolId } from '../../contract/tools';
import type { LocalEngine, LocalEngineOptions, LocalPrecheck } from './local/local-engine';
import type { ProviderInput, ToolResult } from './provider';
import type { ReplicateModelSpec } from './replicate/model-spec';

export interface ServedTool {
  readonly id: ToolId;
  /** The labelled demo output (DEMO on every image): a placeholder, never presented as AI. */
  demo(input: ProviderInput): Promise<ToolResult>;
  /** The Replicate model that serves the tool; none: Replicate does not. */
  readonly replicate?: ReplicateModelSpec;
  /** The engine on this machine, imported on first use; none: the demo stands in locally. */
  local?(options: LocalEngineOptions): Promise<LocalEngine<ProviderInput>>;
  /** The local engine's cheap check of an input before the charge (LocalPrecheck); none: nothing to foresee. */
  localPrecheck?(options: LocalEngineOptions): Promise<LocalPrecheck<ProviderInput>>;
}

/** Every tool, as the registry lists them (tools/registry.ts `SERVER_TOOLS`). */
export type ServedTools = readonly ServedTool[];

/** Looks a tool up by id in `tools`; throws for a tool the list lacks. */
export function servedToolFinder(tools: ServedTools): (id: ToolId) => ServedTool {
  const byId = new Map(tools.map((tool) => [tool.id, tool]));
  return (id) => {
    const tool = byId.get(id);
    if (!tool) throw new Error(`no tool module for ${id}`);
    return tool;
  };
}
