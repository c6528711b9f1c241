// Every image of a batch, sent or not (decision 062, issue 54): its job when the server took it, the
// server's refusal when it did not (batches.images, noted by the route that refused it), or nothing
// yet. The batch's view lists the refusals beside the jobs; its zip's README lists every image.
import type { JobRow } from '../jobs/queue/jobs-repository';
import type { BatchRow } from './batch-repository';

export type BatchImage =
  | { item: number; name: string | null; state: 'sent'; job: JobRow }
  | { item: number; name: string; state: 'refused'; error: string }
  /** No image came for this place: the page that sends them has not yet, or stopped (closed, offline). */
  | { item: number; name: string | null; state: 'not-sent' };

/** The batch's images in their order: a job wins over a refusal (an image sent again and taken). */
export function imagesOfBatch(batch: Pick<BatchRow, 'size' | 'images'>, batchJobs: readonly JobRow[]): BatchImage[] {
  const byItem = new Map(batchJobs.map((job) => [job.batchItem, job]));
  return Array.from({ length: batch.size }, (_, item): BatchImage => {
    const note = batch.images[String(item)];
    const job = byItem.get(item);
    if (job) return { item, name: job.sourceName ?? note?.name ?? null, state: 'sent', job };
    if (note?.refused) return { item, name: note.name ?? `Image ${item + 1}`, state: 'refused', error: note.refused };
    return { item, name: note?.name ?? null, state: 'not-sent' };
  });
}

/** The images the server refused (contract Batch.refused). */
export const refusedImages = (images: readonly BatchImage[]) =>
  images.flatMap((image) =>
    image.state === 'refused' ? [{ item: image.item, name: image.name, error: image.error }] : [],
  );
