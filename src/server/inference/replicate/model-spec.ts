// How a tool is served by a Replicate model (each tool folder gives its own: tools/<tool-id>/).
// Official models run their latest version through POST /v1/models/{owner}/{name}/predictions;
// community models are pinned to a version id and run through POST /v1/predictions, so an owner
// pushing a new version cannot change what we run.
import type { ProviderInput } from '../provider';

/**
 * How a prediction's `output` becomes our list of image URLs:
 * - `list`: an array of URLs, one per image asked for;
 * - `single`: one URL;
 * - `first`: an array of which only the first is the result;
 * - `cutout-then-list`: an array whose first entry is the product cut-out (dropped), then the images.
 */
export type OutputRule = 'list' | 'single' | 'first' | 'cutout-then-list';

export type ReplicateModelSpec<I extends ProviderInput = ProviderInput> = {
  /** `owner/name` */
  model: `${string}/${string}`;
  /** Pinned version id; absent for official models, which always run their latest version. */
  version?: string;
  output: OutputRule;
  /**
   * The model's input for a request. `image`: the data URI or uploaded-file URL of the request's
   * `image` (undefined for a tool that takes none).
   */
  buildInput: (request: I, image: string | undefined) => Record<string, unknown>;
};
