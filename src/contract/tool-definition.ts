// What a tool is in the contract: the type of each tool's definition (contract/tools/<tool-id>/
// definition.ts). Every per-tool fact the server and the pages share is a field here, so shared code
// asks the definition instead of testing tool ids; contract/tool-list.ts lists the definitions and
// contract/tools.ts derives the ids, types and tables from it. Adding a tool: docs/adding-a-tool.md.
//
// The definitions are on the landing page's path (its cards list the tools), so they hold data and
// small functions only: the request's zod schema is a module of its own beside the definition
// (request.ts), which the tool's server module carries (a dynamic import here instead split the
// landing page's chunks: +3 kB, over issue 18's budget).
import type { IconName } from './icons';
import type { OutputFormat } from './output-formats';

/** The image a tool takes and the shapes its models can use, checked before the charge (decision 015). */
export type ImageIntake = {
  /** The shortest side at least this many px. */
  minSide: number;
  /** The longest side at most this many times the shortest. */
  maxAspect: number;
  /** The longest side at most this many px (a webp result of the upload's own size). */
  maxSide?: number;
  /** The spec's 5 MB upload limit with its sentence ("File size must be less than 5MB"); otherwise 10 MB. */
  spec5MB?: true;
  /**
   * An upscale: the largest input is the limit at each of these scales (UPSCALE_MAX_INPUT in
   * tools.ts, so that the result stays within 16 megapixels) instead of 40 megapixels.
   */
  scales?: readonly (2 | 4 | 6)[];
};

/** The files of a tool whose result is images. */
export type ImageResult = {
  /** The format a result comes in when the call asks for none (product-spec.md section 7). */
  format: OutputFormat;
  /** The spec's download name of the n-th image of a result (1-based). */
  downloadName: (n: number) => string;
  /**
   * Whose transparency the result keeps, so that JPEG is refused for it: 'cut-out', a subject on a
   * transparent background unless the call asks for a background colour; 'upload', the upload's own
   * (refused when the upload may have any). None: the result is opaque.
   */
  transparency?: 'cut-out' | 'upload';
};

export interface ToolDefinition<Id extends string = string> {
  /** The tool's id: its folder's name on each side, its jobs' `tool`, a batch's `tool`. */
  id: Id;
  /** Page heading and document title. */
  title: string;
  /** Sidebar label (product-spec.md section 2, "Menu labels"). */
  menuLabel: string;
  /** Client-side route. */
  route: `/${string}`;
  /** Backend call, under /api (product-spec.md section 7). */
  apiPath: `/${string}`;
  /** Tokens per unit (product-spec.md section 9); what the server charges. */
  cost: number;
  /** What the cost is multiplied by: each image asked for, or one request. */
  costPer: 'image' | 'request';
  /**
   * Tokens per unit on the server's local engine, where its result is worth less than the spec's
   * model's (decision 039); none: `cost`. The server prices from these fields only (server/pricing/).
   */
  localPrice?: number;
  /**
   * 'preview': the local engine's result carries a labelled placeholder, so it is a free preview
   * like the demo's (decision 039); none: the local result is real and charged.
   */
  localResult?: 'preview';
  /** One line under the title: what the tool does. */
  summary: string;
  /** The response's result field: `output` as a list of URLs, `output` as one URL, or the analysis. */
  response: 'image-list' | 'image' | 'analysis';
  /** What the user reads when a job of this tool fails (product-spec.md section 8). */
  failureMessage: string;
  /** Its icon in the menu, on the landing page and on its page (lucide's name). */
  icon: IconName;
  /** A headline tool: a wide card on the landing page. */
  featured?: boolean;
  /** Its request carries a prompt (the contract's shared prompt field and its limits). */
  prompt?: true;
  /** The image its request carries and that image's limits; none: no image. */
  image?: ImageIntake;
  /** A call asks for 1 to MAX_IMAGES_PER_REQUEST images, each charged. */
  manyOutputs?: true;
  /** It takes a batch (contract/batches.ts): one image in, one result out, per batch image. */
  batch?: true;
  /** The files of its result; none: the result is not an image (an analysis). */
  resultFiles?: ImageResult;
  /**
   * Its result is a cut-out a person may refine by hand (issue 58, decision 082): the model's matte
   * is kept with the job, and POST /api/creations/:id/refine makes a new version from the photo
   * and an edited matte, free.
   */
  refine?: true;
  /** "Send to <sendLabel>": other tools' results can open here as the image (a stored file, no download). */
  sendLabel?: string;
}
