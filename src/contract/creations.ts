// My Creations (issue 17): what a user made, listed, deleted, shared and reused. The server answers
// with these types and the web reads them, so the two sides cannot drift apart.
import type { z } from 'zod';
import type * as schemas from './api-response-schemas';
import type { OutputFormat } from './output-files';
import type { JobView } from './tool-responses';
import type { ToolId } from './tools';

/** The settings a user chose for a job, as sent (prompt, scale, aspectRatio, numOutputs...), images left out. */
export type CreationSettings = Record<string, string | number | boolean>;

/** One stored image of a creation (its `id`: send `/api/files/<id>` as a tool's image to use it again, see `storedImageRef`). */
export type CreationImage = z.output<typeof schemas.CREATION_IMAGE>;

/** One job of the user's, with what it cost (charged, refunded) and what it made. */
export type Creation = z.output<typeof schemas.CREATION>;

/** GET /api/creations?tool=<id>&cursor=<next>&limit=<1..100>: newest first. */
export type CreationList = z.output<typeof schemas.CREATION_LIST>;

/** GET /api/creations/usage: storage used against the quota, and the retention in force. */
export type CreationUsage = {
  usedBytes: number;
  quotaBytes: number;
  /** Uploaded images are deleted this many days after the job. */
  uploadRetentionDays: number;
  /** Results are deleted this many days after the job, unless the user deletes them first. */
  resultRetentionDays: number;
};

/** POST /api/creations/:jobId/share answers this; DELETE /api/creations/:jobId/share turns it off (204). */
export type ShareLink = { shareUrl: string };

/** GET /api/shared/:token (signed out): the shared creation only, nothing else of its owner. */
export type SharedCreation = {
  tool: ToolId;
  createdAt: string;
  /** Each image with its size and the format it is stored in (its download's extension). */
  outputs: { url: string; width: number | null; height: number | null; format: OutputFormat | null }[];
  keywords: JobView['keywords'];
  colors: JobView['colors'];
};

/** The page that shows a shared creation. */
export const SHARED_ROUTE_PREFIX = '/shared/';

const STORED_IMAGE = /^\/api\/files\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** A tool's image field may name one of the user's own stored files instead of carrying base64. */
export const storedImageRef = (fileId: string): string => `/api/files/${fileId}`;

/** The file id an image field names, or null when it carries image data. */
export function storedImageId(image: string): string | null {
  return STORED_IMAGE.exec(image)?.[1]?.toLowerCase() ?? null;
}
