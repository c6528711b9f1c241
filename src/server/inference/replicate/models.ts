// The one table of Replicate models: which model serves each tool and how our ToolInput maps to its
// input (inference.md, "The tools"). Official models run their latest version through
// POST /v1/models/{owner}/{name}/predictions; community models are pinned to a version id and run
// through POST /v1/predictions, so an owner pushing a new version cannot change what we run.
import type { ToolId } from '../../../contract/tools';
import type { ImageInput, ToolInput } from '../provider';

export type ReplicateToolId = Exclude<ToolId, 'image-analyzer'>;
export type ReplicateToolInput = Extract<ToolInput, { tool: ReplicateToolId }>;
type InputFor<T extends ReplicateToolId> = Extract<ToolInput, { tool: T }>;

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

export type ReplicateModelSpec<T extends ReplicateToolId> = {
  /** `owner/name` */
  model: `${string}/${string}`;
  /** Pinned version id; absent for official models, which always run their latest version. */
  version?: string;
  output: OutputRule;
  buildInput: BuildInput<InputFor<T>>;
};

export const REPLICATE_MODELS: { readonly [T in ReplicateToolId]: ReplicateModelSpec<T> } = {
  'text-to-pic': {
    model: 'black-forest-labs/flux-schnell',
    output: 'list',
    buildInput: (r) => ({
      prompt: r.prompt,
      aspect_ratio: r.aspectRatio,
      num_outputs: r.numOutputs,
      go_fast: true,
      output_format: 'webp',
      output_quality: r.outputQuality,
    }),
  },
  metamorphose: {
    model: 'bytedance/flux-pulid',
    // Used by 10+ public projects calling replicate.run('bytedance/flux-pulid:8baa7ef2…').
    version: '8baa7ef2255075b46f4d91cd238c21d31181b3e6a864463f967960bb0112525b',
    output: 'list',
    buildInput: (r, image) => ({
      main_face_image: image,
      prompt: r.prompt,
      width: r.width,
      height: r.height,
      num_outputs: 1,
      output_quality: 33,
      output_format: 'webp',
    }),
  },
  'text-lab': {
    model: 'ideogram-ai/ideogram-v2-turbo',
    output: 'single',
    buildInput: (r) => ({ prompt: r.prompt, aspect_ratio: r.aspectRatio, magic_prompt_option: r.textAssist }),
  },
  'image-upscaler': {
    model: 'nightmareai/real-esrgan',
    // Replicate's own model-page example (cat.jpg) and many public callers use f121d640…; the older
    // 42fed1c4… also still appears on replicate.com prediction pages.
    version: 'f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
    output: 'single',
    buildInput: (r, image) => ({ image, scale: r.scale, face_enhance: false }),
  },
  colorizer: {
    model: 'piddnad/ddcolor',
    // replicate.com/p/pkxytzdbkuach644xwzyouk5fu (model_size "large") and public callers.
    version: 'ca494ba129e44e45f661d6ece83c4c98a9a7c774309beca01429b58fce8aa695',
    output: 'single',
    buildInput: (_r, image) => ({ image, model_size: 'large' }),
  },
  'background-remover': {
    model: '851-labs/background-remover',
    // replicate.com/851-labs/background-remover/versions/a029dff3…/api (output: one PNG URI).
    version: 'a029dff38972b5fda4ec5d75d7d1cd25aeff621d2cf4946a41055d7db66b80bc',
    output: 'single',
    buildInput: (_r, image) => ({ image }),
  },
  'creative-upscaler': {
    model: 'philz1337x/clarity-upscaler',
    // replicate.com/philz1337x/clarity-upscaler/versions/dfad4170… (example reads output[0]).
    version: 'dfad41707589d68ecdccd1dfa600d55a208f9310748e44bfe35b4a6291453d5e',
    output: 'first',
    buildInput: (r, image) => ({ image, scale_factor: r.scale }),
  },
  'fix-a-face': {
    model: 'tencentarc/gfpgan',
    // replicate.com/tencentarc/gfpgan/versions/0fbacf7a…/api (img, version default v1.4, scale).
    version: '0fbacf7afc6c144e5be9767cff80f25aff23e52b0708f17e20f9879b2f21516c',
    output: 'single',
    buildInput: (r, image) => ({ img: image, version: 'v1.4', scale: r.scale }),
  },
  'background-swap': {
    model: 'logerzhu/ad-inpaint',
    // replicate.com/logerzhu/ad-inpaint/versions/b1c17d14… (the version with image_num). Its output
    // starts with the product cut-out (public callers use output.slice(1)).
    version: 'b1c17d148455c1fda435ababe9ab1e03bc0d917cc3cf4251916f22c45c83c7df',
    output: 'cutout-then-list',
    buildInput: (r, image) => ({ image_path: image, prompt: r.prompt, image_num: r.numOutputs }),
  },
};

export function isReplicateTool(tool: ToolId): tool is ReplicateToolId {
  return tool in REPLICATE_MODELS;
}

/** The model spec and the exact input to send for one request. */
export function replicateRequestFor(
  request: ReplicateToolInput,
  image: string | undefined,
): { spec: ReplicateModelSpec<ReplicateToolId>; input: Record<string, unknown> } {
  const spec = REPLICATE_MODELS[request.tool] as ReplicateModelSpec<ReplicateToolId>;
  // The table is keyed by tool, so each builder gets the request variant it was written for; TS
  // cannot correlate the union key with the union argument on its own.
  const build = spec.buildInput as (request: ReplicateToolInput, image: string | undefined) => Record<string, unknown>;
  return { spec, input: build(request, image) };
}

/** The spec of a prediction's `owner/name` model, if it is one of ours. */
export function specForModel(model: string): ReplicateModelSpec<ReplicateToolId> | undefined {
  return Object.values(REPLICATE_MODELS).find((spec) => spec.model === model) as
    | ReplicateModelSpec<ReplicateToolId>
    | undefined;
}

/** How many images the request asked for (the most we return). */
export function imagesRequested(request: ReplicateToolInput): number {
  return 'numOutputs' in request ? request.numOutputs : 1;
}
