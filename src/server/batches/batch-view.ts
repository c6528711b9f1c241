// What GET /api/batches/:id answers (contract Batch): each image's job as My Creations shows it, with
// its place in the line while it waits, the images the server refused, the counts by state, and the
// time until the last image sent should be done. Places and times come from the job progress the job reads use
// (jobs/views/job-progress.ts): one read of the line serves every image of the batch.
import { BATCH_PATHS, type Batch, type BatchToolId, batchResultName } from '../../contract/batches';
import type { ToolId } from '../../contract/tools';
import { viewCreation } from '../creations/creation-view';
import { chargesOfJobs, filesOfJobs } from '../creations/creations-repository';
import type { AppDb } from '../db/client';
import type { JobProgressOf } from '../jobs/views/job-progress';
import { unitPrice } from '../pricing/prices';
import { imagesOfBatch, refusedImages } from './batch-images';
import { type BatchRow, jobsOfBatch } from './batch-repository';

export async function viewBatch(
  deps: { db: AppDb; progressOf: JobProgressOf; providerFor: (tool: ToolId) => string },
  batch: BatchRow,
): Promise<Batch> {
  const { db } = deps;
  const tool = batch.tool as BatchToolId;
  const batchJobs = await jobsOfBatch(db, batch.id);
  const ids = batchJobs.map((job) => job.id);
  const [jobFiles, charges, progress] = await Promise.all([
    filesOfJobs(db, ids),
    chargesOfJobs(db, ids),
    Promise.all(batchJobs.map((job) => deps.progressOf(job))),
  ]);
  const counts = { waiting: 0, running: 0, done: 0, failed: 0 };
  let charged = 0;
  let refunded = 0;
  const items = batchJobs.map((job, index) => {
    const creation = viewCreation(
      job,
      jobFiles.filter((file) => file.jobId === job.id),
      charges.get(job.id),
      null,
      new Map([[batch.id, batch.size]]),
    );
    charged += creation.charged;
    refunded += creation.refunded;
    counts[({ queued: 'waiting', running: 'running', succeeded: 'done', failed: 'failed' } as const)[job.status]] += 1;
    return {
      ...creation,
      queuePosition: progress[index]?.queuePosition ?? null,
      resultName: batchResultName(tool, job.sourceName ?? ''),
    };
  });
  const left = progress.map((p) => p.secondsLeft).filter((s): s is number => s !== null);
  return {
    id: batch.id,
    tool,
    size: batch.size,
    createdAt: batch.createdAt.toISOString(),
    price: unitPrice(tool, deps.providerFor(tool)),
    items,
    refused: refusedImages(imagesOfBatch(batch, batchJobs)),
    counts,
    charged,
    refunded,
    secondsLeft: left.length > 0 ? Math.max(...left) : null,
    downloadUrl: `/api${BATCH_PATHS.download(batch.id)}`,
  };
}
