// One image sent to a batch, checked and answered the same way wherever it comes in: POST
// /api/batches/:id/images (routes.ts) and POST /api/recipe-runs/:id/images (recipes/routes.ts),
// whose results are a batch's too. Also the names a new batch or recipe run is given for its images.
import { type BatchImageQueued, MAX_BATCH_NAME_LENGTH } from '../../contract/batches';
import { isStorableText } from '../../contract/text';
import type { AppDb } from '../db/client';
import { findOwnJob } from '../jobs/queue/jobs-repository';
import { balanceOf } from '../ledger/ledger';

/** An image's file name as a batch keeps it (its zip entry and README line are named after it). */
export const isBatchName = (name: unknown): name is string =>
  typeof name === 'string' && name.trim() !== '' && name.length <= MAX_BATCH_NAME_LENGTH && isStorableText(name);

/** The names of a new batch's images: one per image. */
export const areBatchNames = (names: unknown, size: number): names is string[] =>
  Array.isArray(names) && names.length === size && names.every(isBatchName);

/**
 * The image's place in a batch of `size` from the request's `item` (a number in JSON, digits in a
 * multipart form), or null when it names no place of the batch.
 */
export function batchItemOf(item: unknown, size: number): number | null {
  const place = typeof item === 'string' && /^\d+$/.test(item) ? Number(item) : item;
  return typeof place === 'number' && Number.isInteger(place) && place >= 0 && place < size ? place : null;
}

/**
 * Whether a tool call's refusal of a batch's image is the image's own, to be noted as failed with its
 * sentence (in the batch's view and its zip's README): not a 429, sent again after Retry-After, nor
 * a 401, a session gone.
 */
export const refusesTheImage = (refusal: { status: number }) => refusal.status !== 429 && refusal.status !== 401;

/** The 202 answer to an image taken as a job: the job's state as it is now and the balance after its charge. */
export async function queuedImageAnswer(
  db: AppDb,
  userId: string,
  image: { jobId: string; item: number },
): Promise<BatchImageQueued> {
  const job = await findOwnJob(db, image.jobId, userId);
  return {
    jobId: image.jobId,
    item: image.item,
    status: job?.status ?? 'queued',
    charged: job?.charged ?? 0,
    balance: await balanceOf(db, userId),
  };
}
