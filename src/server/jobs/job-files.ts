// A job's images in file storage: its inputs (written before the job is charged, so that a worker
// in another process can read them) and its outputs (written before the job is marked succeeded).
import { randomUUID } from 'node:crypto';
import { extensionOfType } from '../../contract/output-files';
import type { AppDb } from '../db/client';
import { convertedKeys } from '../images/finishing/stored-conversions';
import { readDimensions, sniffFormat } from '../images/image-input';
import type { ImageInput, OutputImage } from '../images/image-types';
import type { FileStorage } from '../storage/storage';
import { inputFilesOf, type JobRow, type NewFile } from './queue/jobs-repository';

/** Writes a new job's input images; answers their file rows, to insert with the job. */
export async function storeInputs(
  storage: FileStorage,
  job: { id: string; userId: string },
  images: ImageInput[],
): Promise<NewFile[]> {
  return Promise.all(
    images.map(async (image, index) => {
      const storageKey = `inputs/${job.id}/${index}.${extensionOfType(image.mime)}`;
      await storage.put(storageKey, image.bytes, image.mime);
      return {
        userId: job.userId,
        jobId: job.id,
        kind: 'input' as const,
        storageKey,
        contentType: image.mime,
        size: image.bytes.length,
        width: image.width,
        height: image.height,
      };
    }),
  );
}

/**
 * Writes a run's output images, or the mattes a refinable tool keeps beside them (`kind` matte,
 * decision 082); answers their file rows (ids chosen here, for the job's result).
 */
export async function storeOutputs(
  storage: FileStorage,
  job: Pick<JobRow, 'id' | 'userId' | 'attempts'>,
  images: OutputImage[],
  kind: 'output' | 'matte' = 'output',
) {
  return Promise.all(
    images.map(async (image, index) => {
      // Per attempt: a run that lost its job (handed back) must not overwrite the later run's files.
      const storageKey = `${kind}s/${job.id}/${job.attempts}-${index}.${extensionOfType(image.contentType)}`;
      await storage.put(storageKey, image.bytes, image.contentType);
      // From the header only: My Creations shows each output's size.
      const mime = image.width ? null : sniffFormat(image.bytes);
      const size =
        image.width && image.height
          ? { width: image.width, height: image.height }
          : mime
            ? readDimensions(image.bytes, mime)
            : null;
      return {
        id: randomUUID(),
        userId: job.userId,
        jobId: job.id,
        kind,
        storageKey,
        contentType: image.contentType,
        size: image.bytes.length,
        width: size?.width ?? null,
        height: size?.height ?? null,
      };
    }),
  );
}

/**
 * Removes files (of a job that was not charged, outputs of a run that lost its job, deleted
 * creations and accounts), each with the conversions kept beside it (stored-conversions.ts).
 */
export async function removeFiles(storage: FileStorage, rows: { storageKey: string }[]): Promise<void> {
  const keys = rows.flatMap((row) => [row.storageKey, ...convertedKeys(row.storageKey)]);
  await Promise.all(keys.map((key) => storage.delete(key).catch(() => {})));
}

/** A job's input images, read back from storage in input order. */
export async function loadInputImages(db: AppDb, storage: FileStorage, job: JobRow): Promise<ImageInput[]> {
  const images: ImageInput[] = [];
  for (const row of await inputFilesOf(db, job.id)) {
    const bytes = await storage.get(row.storageKey);
    if (!bytes) throw new Error(`input file ${row.storageKey} of job ${job.id} is missing`);
    images.push({ bytes, mime: row.contentType as ImageInput['mime'], width: row.width ?? 0, height: row.height ?? 0 });
  }
  return images;
}
