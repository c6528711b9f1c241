// How a tool is served by a Replicate model (each tool folder gives its own: tools/<tool-id>/).
// Official models run their latest version through POST /v1/models/{owner}/{name}/predictions;
// community models are pinned to a version id and run through POST /v1/predictions, so an owner
// pushing a new version cannot change what we run.
import type { ImageInput } from '../../images/image-types';

/**
 * How a prediction's `output` becomes our list of image URLs:
 * - `list`: an array of URLs, one per image asked for;
 * - `single`: one URL;
 * - `first`: an array of which only the first is the result;
 * - `cutout-then-list`: an array whose first entry is the product cut-out (dropped), then the images.
 */
export type OutputRule = 'list' | 'single' | 'first' | 'cutout-then-list';

/** The image argument is the data URI or uploaded-file URL of the request's image. */
type BuildInput<I> = I extends { image: ImageInput }
  ? (request: I, image: string) => Record<string, unknown>
  : (request: I) => Record<string, unknown>;

export type ReplicateModelSpec<I> = {
  /** `owner/name` */
  model: `${string}/${string}`;
  /** Pinned version id; absent for official models, which always run their latest version. */
  version?: string;
  output: OutputRule;
  buildInput: BuildInput<I>;
};
