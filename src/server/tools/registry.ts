// The server's tools, derived from the modules' list (tool-modules.ts). Routes and jobs look a tool
// up here by the id the contract gives it, and the providers are handed the list (they import
// nothing from tools/); this file names no tool.
import { inToolOrder, type ToolId, type ToolsWithoutModule } from '../../contract/tools';
import type { ServerTool } from './server-tool';
import { TOOL_MODULES } from './tool-modules';

type InputOf<T> = T extends ServerTool<infer I> ? I : never;

/** What a tool job asks of a provider: one tool's validated request, images decoded. */
export type ToolInput = InputOf<(typeof TOOL_MODULES)[number]>;

// Every tool of the contract has a module (a compile error names the one missing).
type Missing = ToolsWithoutModule<(typeof TOOL_MODULES)[number]>;
const everyToolHasAModule: [Missing] extends [never] ? true : Missing = true;
void everyToolHasAModule;

/**
 * Every tool, in the contract's order. Each keeps its own input type where an input comes out of it
 * (`prepare`): here any tool's. The providers take this list (system.ts, engine-main.ts).
 */
export const SERVER_TOOLS: readonly ServerTool<ToolInput>[] = inToolOrder<ServerTool<ToolInput>>(
  TOOL_MODULES,
  'server tools',
);
const BY_ID = new Map<ToolId, ServerTool<ToolInput>>(SERVER_TOOLS.map((tool) => [tool.id, tool]));

/** The module of a tool. */
export function serverTool(id: ToolId): ServerTool<ToolInput> {
  const tool = BY_ID.get(id);
  if (!tool) throw new Error(`no server module for tool ${id}`);
  return tool;
}
