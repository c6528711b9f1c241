// What the API shows of a creation (contract/creations.ts): the job view, what it cost, the
// settings the user chose (images left out) and its images with their thumbnails.
import type { Creation, CreationImage, CreationSettings } from '../../contract/creations';
import type { FileRow, JobRow } from '../jobs/queue/jobs-repository';
import type { StoredInput } from '../jobs/stored-input';
import { fileUrl, viewJob } from '../jobs/views/job-view';
import { thumbnailUrl } from './thumbnails';

/** The stored input's plain fields: an image (a reference to an input file) is an object and left out. */
export function settingsOf(stored: unknown): CreationSettings {
  const fields = ((stored as StoredInput | null)?.format === 2 ? (stored as StoredInput).input : stored) ?? {};
  const settings: CreationSettings = {};
  for (const [key, value] of Object.entries(fields as Record<string, unknown>)) {
    if (key === 'imageFiles') continue; // the old summary's count of images, not a setting
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') settings[key] = value;
  }
  return settings;
}

const imageOf = (file: FileRow): CreationImage => ({
  id: file.id,
  url: fileUrl(file.id),
  thumbnailUrl: thumbnailUrl(file.id),
  width: file.width,
  height: file.height,
});

export function viewCreation(
  job: JobRow,
  jobFiles: FileRow[],
  charges: { charged: number; refunded: number } | undefined,
  shareUrl: string | null,
  /** How many images the job's batch has, by batch id (creations-repository.ts batchImageCounts). */
  batchImages: ReadonlyMap<string, number> = new Map(),
  /** The versions of each original job with any, by its id (creations-repository.ts versionsOfJobs). */
  versions: ReadonlyMap<string, string[]> = new Map(),
): Creation {
  const view = viewJob(job);
  const outputIds = ((job.result ?? {}) as { files?: string[] }).files ?? [];
  const byId = new Map(jobFiles.map((f) => [f.id, f]));
  return {
    ...view,
    charged: charges?.charged ?? 0,
    refunded: charges?.refunded ?? 0,
    settings: settingsOf(job.input),
    inputs: jobFiles.filter((f) => f.kind === 'input').map(imageOf),
    // In the result's order; a file already removed is left out.
    outputs: outputIds.flatMap((id) => {
      const file = byId.get(id);
      return file ? [imageOf(file)] : [];
    }),
    shareUrl,
    batch:
      job.batchId === null || job.batchItem === null
        ? null
        : {
            id: job.batchId,
            item: job.batchItem,
            name: job.sourceName ?? '',
            images: batchImages.get(job.batchId) ?? 1,
          },
    versions: versions.get(job.parentJobId ?? job.id) ?? [],
  };
}
