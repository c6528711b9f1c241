// The Replicate side of the tools: each tool's module names its model and how our input maps to
// it (tools/<tool-id>/index.ts, inference.md "The tools"); this looks them up, in the tools the
// provider was given, for the provider.
import type { ToolId } from '../../../contract/tools';
import { ProviderError, type ProviderInput } from '../provider';
import type { ServedTools } from '../served-tool';
import type { ReplicateModelSpec } from './model-spec';

export type { OutputRule, ReplicateModelSpec } from './model-spec';

export type ReplicateModels = {
  /** The model specs of every tool Replicate serves. */
  all: readonly ReplicateModelSpec[];
  serves(tool: ToolId): boolean;
  /** The model spec and the exact input to send for one request. */
  requestFor(
    request: ProviderInput,
    image: string | undefined,
  ): { spec: ReplicateModelSpec; input: Record<string, unknown> };
  /** The spec of a prediction's `owner/name` model, if it is one of ours. */
  specForModel(model: string): ReplicateModelSpec | undefined;
};

export function replicateModels(tools: ServedTools): ReplicateModels {
  const byTool = new Map(tools.flatMap((tool) => (tool.replicate ? [[tool.id, tool.replicate] as const] : [])));
  const all = [...byTool.values()];
  return {
    all,
    serves: (tool) => byTool.has(tool),
    requestFor(request, image) {
      const spec = byTool.get(request.tool);
      if (!spec) throw new ProviderError(`Replicate does not serve ${request.tool}`);
      return { spec, input: spec.buildInput(request, image) };
    },
    specForModel: (model) => all.find((spec) => spec.model === model),
  };
}

/** How many images the request asked for (the most we return). */
export const imagesRequested = (request: ProviderInput): number => request.numOutputs ?? 1;
