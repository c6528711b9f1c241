// Refining a cut-out by hand (issue 58 item 1, decision 082): the original photo and an edited
// mask make a new version of a result, finished with the options the job had, stored as a job of
// its own (provider `refine`, cost 0, `parent_job_id` the original), so that My Creations,
// downloads, share links and retention treat it as any result. Free: no charge, no ledger row.
// Cheap checks first (the job, the mask's type, bytes and size from its header); the decode and
// pixel work run in a decode slot (images/decode-slots.ts), on libvips' threads.
import { createHash, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { IMAGE_MAX_BYTES, INPUT_MESSAGES } from '../../contract/input-limits';
import { MASK_ASPECT_TOLERANCE, MASK_MIN_SIDE, MASK_TYPES, REFINE_MESSAGES } from '../../contract/refine';
import { IMAGE_FIELD_MESSAGE } from '../../contract/tool-requests';
import { type ToolId, toolById } from '../../contract/tools';
import { viewCreation } from '../creations/creation-view';
import { filesOfJobs, storageUsedBy, versionsOfJobs } from '../creations/creations-repository';
import { STORAGE_QUOTA_REACHED } from '../creations/usage';
import type { AppDb } from '../db/client';
import { isUuid } from '../db/ids';
import { files, jobs } from '../db/schema';
import { decodeSlots } from '../images/decode-slots';
import { cutOutWithMatte, maskAsMatte } from '../images/finishing/matte';
import { finishResultImage } from '../images/finishing/result-file';
import { DEFAULT_MAX_PIXELS, decodeImageField, InputError } from '../images/image-input';
import type { ImageInput } from '../images/image-types';
import { loadInputImages, removeFiles, storeInputs, storeOutputs } from '../jobs/job-files';
import type { FileRow, JobRow } from '../jobs/queue/jobs-repository';
import { resultFileOptionsOf } from '../jobs/result-files';
import type { FileStorage } from '../storage/storage';

/** The provider a refined version's job row names (and the one check that lets its cost be 0). */
export const REFINE_PROVIDER = 'refine';

export type RefineDeps = { db: AppDb; storage: FileStorage; quotaBytes: number };

/** A refusal, answered as `{ error }` with its status; nothing was stored. */
export class RefineRefusal extends Error {
  override name = 'RefineRefusal';
  constructor(
    readonly status: 400 | 404 | 409 | 413,
    message: string,
  ) {
    super(message);
  }
}

/** A job of the user's that can be refined, with its matte's file row (the photo's size, upright). */
export async function refinableJob(db: AppDb, userId: string, jobId: string): Promise<{ job: JobRow; matte: FileRow }> {
  const [job] = isUuid(jobId)
    ? await db
        .select()
        .from(jobs)
        .where(and(eq(jobs.id, jobId), eq(jobs.userId, userId)))
    : [];
  // Another account's job is as unknown as a missing one.
  if (!job) throw new RefineRefusal(404, REFINE_MESSAGES.noSuchCreation);
  if (!toolById(job.tool as ToolId).refine) throw new RefineRefusal(409, REFINE_MESSAGES.notRefinable);
  if (job.status !== 'succeeded') throw new RefineRefusal(409, REFINE_MESSAGES.notFinished);
  const matte = latestMatte(await filesOfJobs(db, [job.id]));
  if (!matte) throw new RefineRefusal(409, REFINE_MESSAGES.noMatte);
  return { job, matte };
}

/** The job's matte (the last run's, if a run was tried again). */
const latestMatte = (jobFiles: FileRow[]) => jobFiles.filter((file) => file.kind === 'matte').at(-1) ?? null;

/**
 * The mask field (a data URL, base64, or a file's bytes), checked from its bytes and header only:
 * a PNG or WebP, within the image limit, the photo's size or smaller in its shape.
 */
export function checkedMask(value: unknown, photo: { width: number; height: number }): ImageInput {
  if (value === undefined || value === '') throw new RefineRefusal(400, REFINE_MESSAGES.maskMissing);
  let mask: ImageInput;
  try {
    const field = Buffer.isBuffer(value) ? value.toString('base64') : value;
    mask = decodeImageField('mask', field, { maxBytes: IMAGE_MAX_BYTES, maxPixels: DEFAULT_MAX_PIXELS });
  } catch (error) {
    if (!(error instanceof InputError)) throw error;
    if (error.reason === INPUT_MESSAGES.imageWrongFormat || error.reason === IMAGE_FIELD_MESSAGE)
      throw new RefineRefusal(400, REFINE_MESSAGES.maskWrongType);
    throw new RefineRefusal(error.status, error.reason.startsWith('mask') ? error.reason : `mask: ${error.reason}`);
  }
  if (!(MASK_TYPES as readonly string[]).includes(mask.mime))
    throw new RefineRefusal(400, REFINE_MESSAGES.maskWrongType);
  const aspect = mask.width / mask.height / (photo.width / photo.height);
  const fits =
    mask.width <= photo.width &&
    mask.height <= photo.height &&
    Math.max(mask.width, mask.height) >= MASK_MIN_SIDE &&
    Math.abs(aspect - 1) <= MASK_ASPECT_TOLERANCE;
  if (!fits)
    throw new RefineRefusal(400, REFINE_MESSAGES.maskWrongSize(mask.width, mask.height, photo.width, photo.height));
  return mask;
}

/**
 * Makes and stores the new version of `job` from its photo and `mask`: answers its creation view.
 * Refused (nothing stored) when the storage is full, the photo is gone or the mask cannot be read.
 */
export async function refine(deps: RefineDeps, job: JobRow, matteSize: FileRow, mask: ImageInput) {
  const { db, storage } = deps;
  if ((await storageUsedBy(db, job.userId)) >= deps.quotaBytes) throw new RefineRefusal(409, STORAGE_QUOTA_REACHED);
  const [photo] = await loadInputImages(db, storage, job).catch(() => []);
  if (!photo) throw new RefineRefusal(409, REFINE_MESSAGES.photoGone);
  const size = { width: matteSize.width ?? 0, height: matteSize.height ?? 0 };

  const made = await decodeSlots.run(job.userId, async () => {
    const matte = await maskAsMatte(mask.bytes, size).catch(() => {
      throw new RefineRefusal(400, `mask: ${INPUT_MESSAGES.imageDamaged}`);
    });
    const { cutOut, source } = await cutOutWithMatte(photo, matte);
    return { matte, result: await finishResultImage(cutOut, resultFileOptionsOf(job.input), source) };
  });

  const version = { id: randomUUID(), userId: job.userId, attempts: 0 };
  const [inputs, outputs, mattes] = await Promise.all([
    storeInputs(storage, version, [photo]),
    storeOutputs(storage, version, [made.result]),
    storeOutputs(storage, version, [made.matte], 'matte'),
  ]);
  const rows = [...inputs, ...outputs, ...mattes];
  const now = new Date();
  let row: JobRow | undefined;
  try {
    row = await db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(jobs)
        .values({
          id: version.id,
          userId: job.userId,
          tool: job.tool,
          status: 'succeeded',
          cost: 0,
          charged: 0,
          // The original's request: the same finishing again on a later refine, and the same settings shown.
          input: job.input,
          provider: REFINE_PROVIDER,
          result: { files: outputs.map((file) => file.id) },
          requestHash: createHash('sha256').update(mask.bytes).digest('hex'),
          parentJobId: job.parentJobId ?? job.id,
          startedAt: now,
          finishedAt: now,
        })
        .returning();
      await tx.insert(files).values(rows);
      return inserted;
    });
  } catch (error) {
    await removeFiles(storage, rows);
    // The original was deleted meanwhile (its id is no longer there to point at).
    if (isForeignKeyViolation(error)) throw new RefineRefusal(404, REFINE_MESSAGES.noSuchCreation);
    throw error;
  }
  if (!row) throw new Error('the refined version was not inserted');
  const [stored, versions] = await Promise.all([filesOfJobs(db, [row.id]), versionsOfJobs(db, [row])]);
  return viewCreation(row, stored, { charged: 0, refunded: 0 }, null, new Map(), versions);
}

const isForeignKeyViolation = (error: unknown): boolean =>
  typeof error === 'object' &&
  error !== null &&
  ((error as { code?: string }).code === '23503' || isForeignKeyViolation((error as { cause?: unknown }).cause));
