// The inference provider interface: one call per tool job. Implementations: replicate/ (hosted
// models), demo/ (labelled placeholders) and local/ (models on this machine), each serving a tool
// as that tool's module says (tools/<tool-id>/): the tools are handed to each provider when it is
// made (served-tool.ts), nothing here imports them. Which provider serves which tool is
// configuration (inference/routing.ts).
import type { ToolId } from '../../contract/tools';
import type { ImageInput, OutputImage } from '../images/image-types';

/**
 * What a tool job asks of a provider: one tool's validated request, whose other fields are that
 * tool's own (tools/<tool-id>/ defines its input type and reads them). A provider reads only what
 * every tool's input shares: the tool, its upload (`image`) if it takes one, and how many images it
 * asks for (`numOutputs`; one without it).
 */
export type ProviderInput = { tool: ToolId; image?: ImageInput; numOutputs?: number };

export type Keyword = { keyword: string; score: number };
export type Color = { hex: string; name: string; percentage: number };

export type ToolResult =
  | { kind: 'images'; images: OutputImage[] }
  | { kind: 'analysis'; keywords: Keyword[]; colors: Color[] }
  /** Accepted but not done: the provider reports the end later (a webhook), `complete` turns it into a result. */
  | { kind: 'pending'; providerRef: string };

export type ProviderName = 'replicate' | 'local' | 'demo';

export interface InferenceProvider {
  readonly name: ProviderName;
  supports(tool: ToolId): boolean;
  /** Runs one job; rejects with ProviderError (or any error) when it fails. Honours `signal`. */
  run(input: ProviderInput, signal: AbortSignal): Promise<ToolResult>;
  /**
   * A refusal this provider can foresee, made before the charge: rejects with a ProviderError whose
   * userMessage is shown (nothing charged); resolves when the input can be served.
   */
  precheck?(input: ProviderInput, signal: AbortSignal): Promise<void>;
  /**
   * For providers that answer `pending`: the result of a finished task from its terminal payload
   * (a webhook's body or what `check` returned), at most `imagesWanted` images; rejects with
   * ProviderError when the task failed.
   */
  complete?(payload: unknown, imagesWanted: number): Promise<ToolResult>;
  /** The task's terminal payload, or null while it is still running (the backstop for a lost webhook). */
  check?(providerRef: string): Promise<unknown | null>;
  /** Stops a task that is still running (best effort, never rejects). */
  cancel?(providerRef: string): Promise<void>;
}

/**
 * A failure a provider understood: `userMessage` is safe to show (else the tool's own failure
 * message is shown); `retryable` failures may be tried again by the queue before refunding.
 */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    message: string,
    readonly options: { userMessage?: string; retryable?: boolean } = {},
  ) {
    super(message);
  }
}
