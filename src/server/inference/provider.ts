// The inference provider interface: one call per tool job. Implementations: replicate/ (hosted
// models), demo/ (labelled placeholders) and local/ (models on this machine). Which provider
// serves which tool is configuration (inference/routing.ts).
import type { AspectRatio, Quality, TextAssist, ToolId } from '../../contract/tools';

export type ImageMime = 'image/png' | 'image/jpeg' | 'image/webp';

/** An uploaded image, already checked: real format from its bytes, dimensions, size limits. */
export type ImageInput = { bytes: Buffer; mime: ImageMime; width: number; height: number };

/** What a tool job asks of a provider: the validated request, images decoded. */
export type ToolInput =
  | {
      tool: 'text-to-pic';
      prompt: string;
      aspectRatio: AspectRatio;
      numOutputs: number;
      quality: Quality;
      outputQuality: 33 | 66 | 100;
    }
  | {
      tool: 'metamorphose';
      prompt: string;
      image: ImageInput;
      width: number;
      height: number;
      numOutputs: 1;
      outputQuality: 33;
    }
  | { tool: 'image-upscaler'; image: ImageInput; scale: 2 | 4 | 6 }
  | { tool: 'colorizer'; image: ImageInput }
  | { tool: 'background-remover'; image: ImageInput }
  | { tool: 'creative-upscaler'; image: ImageInput; scale: 2 }
  | { tool: 'fix-a-face'; image: ImageInput; scale: 2 }
  | { tool: 'text-lab'; prompt: string; aspectRatio: AspectRatio; textAssist: TextAssist }
  | { tool: 'background-swap'; prompt: string; image: ImageInput; numOutputs: number }
  | { tool: 'image-analyzer'; image: ImageInput };

export type OutputImage = { bytes: Buffer; contentType: ImageMime };

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
  run(input: ToolInput, signal: AbortSignal): Promise<ToolResult>;
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
