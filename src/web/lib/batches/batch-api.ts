// The batch API (contract/batches.ts, decision 062): a tool page starts a batch and sends its images,
// then reads it until all are done; My Creations opens and deletes one. Types only from the contract,
// plus its plain paths: no zod in the pages.
import {
  BATCH_PATHS,
  type Batch,
  type BatchCreateRequest,
  type BatchImageQueued,
  type BatchToolId,
} from '../../../contract/batches';
import { type ApiResult, deleteJson, getJson, postJson } from '../api';

const api = (path: string) => `/api${path}`;

/**
 * POST /api/batches with its images' file names, in their order (the zip's README names an image
 * that was never sent by them): 201 with the batch (no items yet), or a refusal `{error}`.
 */
export const createBatch = (tool: BatchToolId, names: string[]) =>
  postJson<Batch>(api(BATCH_PATHS.create), { tool, size: names.length, names } satisfies BatchCreateRequest);

/**
 * POST /api/batches/:id/images: the tool's own body plus the image's place and file name. 202 with
 * its job, or the tool call's refusal. The same item sent again answers the same job: safe to retry.
 */
export const sendBatchImage = (batchId: string, body: Record<string, unknown>) =>
  postJson<BatchImageQueued>(api(BATCH_PATHS.images(encodeURIComponent(batchId))), body);

/** GET /api/batches/:id: its items as My Creations shows jobs, their place in the line, counts and time left. */
export const getBatch = (batchId: string): Promise<ApiResult<Batch>> =>
  getJson<Batch>(api(BATCH_PATHS.one(encodeURIComponent(batchId))));

/** DELETE /api/batches/:id: 204, or 409 `{error}` while images still wait or run. */
export const deleteBatch = (batchId: string) =>
  deleteJson<{ error?: string }>(api(BATCH_PATHS.one(encodeURIComponent(batchId))));

/** Where a batch's zip downloads from (the server's `downloadUrl` says the same once the batch is read). */
export const batchDownloadUrl = (batchId: string) => api(BATCH_PATHS.download(encodeURIComponent(batchId)));
