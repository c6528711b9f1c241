// Batch runs (issue 40, decision 062): many images through one image tool. A batch is a row the
// server keeps (its tool and how many images it will hold); each image is its own tool call and
// its own job, charged and refunded alone, sent to POST /api/batches/:id/images. Server and pages
// share these names, limits, sentences and the names of the files a batch's zip holds.
import type { z } from 'zod';
import type * as schemas from './api-response-schemas';
import { downloadName } from './download-names';
import { type DefinitionOf, TOOLS, type ToolId } from './tools';

/** The image tools that take a batch (`batch` in their definition): one image in, one result out. */
export type BatchToolId = { [T in ToolId]: DefinitionOf<T> extends { batch: true } ? T : never }[ToolId];
/** In the list's order (a non-empty tuple, as z.enum takes). */
export const BATCH_TOOL_IDS = TOOLS.filter((tool) => tool.batch).map((tool) => tool.id) as unknown as readonly [
  BatchToolId,
  ...BatchToolId[],
];

export const isBatchTool = (tool: string): tool is BatchToolId => (BATCH_TOOL_IDS as readonly string[]).includes(tool);

/** Images one batch may hold. */
export const MAX_BATCH_IMAGES = 50;

/**
 * Batch images one user may have queued or running at once (two full batches). Batch images do not
 * count against the per-user cap of single calls (MAX_ACTIVE_JOBS_PER_USER), nor those against this.
 */
export const MAX_ACTIVE_BATCH_IMAGES = 2 * MAX_BATCH_IMAGES;

/** The longest input file name a batch item keeps (its zip entry is named after it). */
export const MAX_BATCH_NAME_LENGTH = 200;

/** The API's paths (under /api). */
export const BATCH_PATHS = {
  create: '/batches',
  one: (id: string) => `/batches/${id}`,
  images: (id: string) => `/batches/${id}/images`,
  download: (id: string) => `/batches/${id}/download`,
} as const;

/** The query parameter of a tool page that shows a batch (kept in the URL, so a reload resumes it). */
export const BATCH_PARAM = 'batch';

/**
 * POST /api/batches: the tool and how many images will follow (the page sends what the balance
 * covers), and optionally their file names in their order: the batch's zip then names in its
 * README.txt an image that was never sent, as it names the others.
 */
export type BatchCreateRequest = { tool: BatchToolId; size: number; names?: string[] };

/**
 * POST /api/batches/:id/images: the tool's own body (JSON or multipart, as POST /api/<tool>) plus
 * `item`, the image's place in the batch (0 to size - 1), and `name`, its file name. Sending an item
 * again answers the job it made (as a repeated Idempotency-Key does).
 */
export const BATCH_IMAGE_FIELDS = ['item', 'name'] as const;

export type BatchItem = z.output<typeof schemas.BATCH_ITEM>;
export type Batch = z.output<typeof schemas.BATCH>;
/** 202 to POST /api/batches/:id/images: the image's job, queued. */
export type BatchImageQueued = z.output<typeof schemas.BATCH_IMAGE_QUEUED>;

export const BATCH_MESSAGES = {
  notBatchTool: `tool: must be one of ${BATCH_TOOL_IDS.join(', ')}`,
  size: `size: must be a whole number from 1 to ${MAX_BATCH_IMAGES}`,
  item: (size: number) => `item: must be a whole number from 0 to ${size - 1}`,
  name: `name: must be a file name of 1 to ${MAX_BATCH_NAME_LENGTH} characters`,
  names: `names: must be a list of file names of 1 to ${MAX_BATCH_NAME_LENGTH} characters, one for each image`,
  notFound: 'This batch does not exist, or it was deleted.',
  tooManyImages: (limit: number) =>
    `You have ${limit} batch images waiting or running. Send more when some of them are done.`,
  stillRunning: 'This batch is still running. You can delete it when all its images are done.',
  nothingToDownload: 'No image of this batch is done yet.',
} as const;

/** The file in every batch zip that lists each image of the batch and what became of it. */
export const BATCH_README_NAME = 'README.txt';

/** The CSV of an Image Analyzer batch, inside its zip (the stock agencies' upload format: a row per file). */
export const BATCH_CSV_NAME = 'keywords.csv';
export const BATCH_CSV_HEADER = ['Filename', 'Keywords', 'Colors'] as const;

/** "IMG_0412.jpg" -> "IMG_0412" (a name without an extension stays as it is; a blank one is "image"). */
export function stemOf(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop()?.trim() ?? '';
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  return stem || 'image';
}

/**
 * What the result of a batch image downloads as: the input's name with the tool's own download
 * name after it (product-spec's names: "IMG_0412.jpg" through Background Remover is
 * "IMG_0412-background-removed.png"); null for a tool whose result is not an image (the Image
 * Analyzer's analyses are the batch's CSV).
 */
export function batchResultName(tool: BatchToolId, inputName: string): string | null {
  const name = downloadName(tool, 1);
  return name === null ? null : `${stemOf(inputName)}-${name}`;
}
