// What one tool is on the server, in one object per tool folder (tools/<tool-id>/index.ts): how
// its request is checked and turned into a provider input, how many units it is charged for, and
// what serves it (its Replicate model, its labelled demo output, its local engine if it has one).
// The registry (registry.ts) lists the ten; routes, providers and jobs read it instead of naming
// tools (docs/adding-a-tool.md).
import type { ToolId } from '../../contract/tools';
import type { ImageInput } from '../images/image-types';
import type { LocalEngineOptions } from '../inference/local/local-provider';
import type { ToolResult } from '../inference/provider';
import type { ReplicateModelSpec } from '../inference/replicate/model-spec';

/** Every tool's provider input names its tool, so a queued job can be routed and run. */
export type ToolInputBase = { tool: ToolId };

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

/** A tool's own local engine: loaded on its first job (the model stays loaded), then run per job. */
export type LocalEngine<I> = (input: I, signal: AbortSignal) => Promise<ToolResult>;

/**
 * A refusal the local engine can foresee (no face, a face too small), checked before the charge:
 * resolves when the engine can serve the input, rejects with a ProviderError whose userMessage says
 * why not and what to try.
 */
export type LocalPrecheck<I> = (input: I, signal: AbortSignal) => Promise<void>;

export interface ServerTool<I extends ToolInputBase = ToolInputBase> {
  id: I['tool'];
  /** Validates a request body; throws InputError (with the field) on the first problem. */
  prepare(body: unknown): PreparedTool<I>;
  /** The Replicate model that serves the tool; none: Replicate does not. */
  replicate?: ReplicateModelSpec<I>;
  /** The labelled demo output (DEMO on every image): a placeholder, never presented as AI. */
  demo(input: I): Promise<ToolResult>;
  /** The engine on this machine, imported on first use; none: the demo stands in locally. */
  local?(options: LocalEngineOptions): Promise<LocalEngine<I>>;
  /** The local engine's cheap check of an input before the charge (LocalPrecheck); none: nothing to foresee. */
  localPrecheck?(options: LocalEngineOptions): Promise<LocalPrecheck<I>>;
  /**
   * 'preview': the local engine's result carries a labelled placeholder (Background Swap's drawn,
   * DEMO-stamped backgrounds), so it is a free preview like the demo's (jobs/free-preview.ts).
   * None: the local result is real and charged.
   */
  localResult?: 'preview';
  /**
   * Tokens per unit on the local engine, where its result is worth less than the spec's model's
   * (decision 039); none: the contract's price.
   */
  localPrice?: number;
}

/** Helps TypeScript keep each tool's own input type (a plain annotation would widen it). */
export const defineServerTool = <I extends ToolInputBase>(tool: ServerTool<I>): ServerTool<I> => tool;
