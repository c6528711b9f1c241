// What one tool is on the server, in one object per tool folder (tools/<tool-id>/index.ts): how
// its request is checked and turned into a provider input, how many units it is charged for (its
// prices are the contract's definition's, server/pricing/), and what serves it (its Replicate model, its labelled demo output, its local engine if it has one).
// The registry (registry.ts) lists them all; routes and jobs read it instead of naming tools, and
// the providers are handed it when they are made (docs/adding-a-tool.md).
import type { z } from 'zod';
import type { ImageInput } from '../images/image-types';
import type { LocalEngine, LocalEngineOptions, LocalPrecheck } from '../inference/local/local-engine';
import type { ProviderInput, ToolResult } from '../inference/provider';
import type { ReplicateModelSpec } from '../inference/replicate/model-spec';
import type { ServedTool } from '../inference/served-tool';

/**
 * Every tool's provider input names its tool, so a queued job can be routed and run; an upload is
 * its `image`, the images it asks for `numOutputs` (what the providers read of any input).
 */
export type ToolInputBase = ProviderInput;

/** A checked request: the provider input (images decoded) and its units. */
export type PreparedTool<I extends ToolInputBase = ToolInputBase> = {
  input: I;
  /** What the tool's price is multiplied by: the images asked for, or one request. */
  units: number;
  /** The input's images (what the costly checks decode and moderate). */
  images: ImageInput[];
  /** The request field the images came from, for messages about them (default `image`). */
  imageField?: string;
};

/** What a tool's folder writes, in terms of its own input type `I`. */
export type ServerToolSpec<I extends ToolInputBase> = {
  id: I['tool'];
  /**
   * The contract's schema of its request body (contract/tools/<tool-id>/request.ts): what `prepare`
   * parses, the multipart form's fields, the OpenAPI document's request body.
   */
  request: z.ZodObject;
  /** Validates a request body; throws InputError (with the field) on the first problem. */
  prepare: (body: unknown) => PreparedTool<I>;
  /** The Replicate model that serves the tool; none: Replicate does not. */
  replicate?: ReplicateModelSpec<I>;
  /** The labelled demo output (DEMO on every image): a placeholder, never presented as AI. */
  demo: (input: I) => Promise<ToolResult>;
  /**
   * The engine on this machine (inference/local/), imported on first use and handed this tool's
   * input in the engine's own terms; none: the demo stands in locally.
   */
  local?: (options: LocalEngineOptions) => Promise<LocalEngine<I>>;
  /** The local engine's cheap check of an input before the charge (LocalPrecheck); none: nothing to foresee. */
  localPrecheck?: (options: LocalEngineOptions) => Promise<LocalPrecheck<I>>;
};

/**
 * A tool as the server holds it: what the providers serve it with (ServedTool) and its request
 * check. Its own input type stays only where an input comes out (`prepare`), so the
 * tools fit one list as they are; where an input goes in, it is checked to be this tool's.
 */
export interface ServerTool<I extends ToolInputBase = ToolInputBase> extends ServedTool {
  readonly id: I['tool'];
  /** Its request body's schema (ServerToolSpec). */
  readonly request: z.ZodObject;
  prepare(body: unknown): PreparedTool<I>;
}

/**
 * A tool's module from its spec: each function that takes an input is given it as the tool's own
 * type, after a check that it is this tool's (an input of another tool is a bug: it throws).
 */
export function defineServerTool<I extends ToolInputBase>(spec: ServerToolSpec<I>): ServerTool<I> {
  const { id, request, replicate, local, localPrecheck } = spec;
  const isOwn = (input: ToolInputBase): input is I => input.tool === id;
  const own = (input: ToolInputBase): I => {
    if (!isOwn(input)) throw new Error(`the ${id} module was given an input of ${input.tool}`);
    return input;
  };
  return {
    id,
    request,
    prepare: spec.prepare,
    demo: async (input) => spec.demo(own(input)),
    ...(replicate
      ? { replicate: { ...replicate, buildInput: (input, image) => replicate.buildInput(own(input), image) } }
      : {}),
    ...(local
      ? {
          local: async (options) => {
            const engine = await local(options);
            return async (input, signal) => engine(own(input), signal);
          },
        }
      : {}),
    ...(localPrecheck
      ? {
          localPrecheck: async (options) => {
            const check = await localPrecheck(options);
            return async (input, signal) => check(own(input), signal);
          },
        }
      : {}),
  };
}
