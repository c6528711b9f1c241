// The Replicate side of the tools: each tool's module names its model and how our input maps to
// it (tools/<tool-id>/index.ts, inference.md "The tools"); this looks them up for the provider.
import type { ToolId } from '../../../contract/tools';
import { SERVER_TOOLS, serverTool } from '../../tools/registry';
import { ProviderError, type ToolInput } from '../provider';
import type { ReplicateModelSpec } from './model-spec';

export type { OutputRule, ReplicateModelSpec } from './model-spec';

/** The model specs of every tool Replicate serves. */
export const REPLICATE_MODELS: readonly ReplicateModelSpec<ToolInput>[] = SERVER_TOOLS.flatMap((tool) =>
  tool.replicate ? [tool.replicate as ReplicateModelSpec<ToolInput>] : [],
);

export const isReplicateTool = (tool: ToolId): boolean => serverTool(tool).replicate !== undefined;

/** The model spec and the exact input to send for one request. */
export function replicateRequestFor(
  request: ToolInput,
  image: string | undefined,
): { spec: ReplicateModelSpec<ToolInput>; input: Record<string, unknown> } {
  const spec = serverTool(request.tool).replicate as ReplicateModelSpec<ToolInput> | undefined;
  if (!spec) throw new ProviderError(`Replicate does not serve ${request.tool}`);
  // Each tool's builder was written for its own input; the request is that tool's (same id).
  const build = spec.buildInput as (request: ToolInput, image: string | undefined) => Record<string, unknown>;
  return { spec, input: build(request, image) };
}

/** The spec of a prediction's `owner/name` model, if it is one of ours. */
export const specForModel = (model: string): ReplicateModelSpec<ToolInput> | undefined =>
  REPLICATE_MODELS.find((spec) => spec.model === model);

/** How many images the request asked for (the most we return). */
export function imagesRequested(request: ToolInput): number {
  return 'numOutputs' in request ? request.numOutputs : 1;
}
