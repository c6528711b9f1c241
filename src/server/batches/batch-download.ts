// GET /api/batches/:id/download: the batch's results in one zip, each named after its input
// ("IMG_0412.jpg" -> "IMG_0412-background-removed.png", contract/batches.ts batchResultName; a name
// met twice gets " (2)"), streamed one file at a time. An Image Analyzer batch is a CSV of file
// name, keywords and colours (the stock agencies' upload format) instead.
import { BATCH_CSV_HEADER, BATCH_CSV_NAME, type BatchToolId, batchResultName, stemOf } from '../../contract/batches';
import type { Analysis } from '../../contract/tool-responses';
import { filesOfJobs } from '../creations/creations-repository';
import type { AppDb } from '../db/client';
import type { JobRow } from '../jobs/queue/jobs-repository';
import { extensionFor, zipStream } from '../responses/zip-stream';
import type { FileStorage } from '../storage/storage';

/** A field of a CSV row: quoted when it holds a comma, a quote or a line break (RFC 4180). */
const csvField = (value: string) => (/[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** The Image Analyzer batch's CSV: a header, then a row per analysed image in the batch's order. */
export function analysisCsv(rows: { name: string; analysis: Partial<Analysis> }[]): string {
  const lines = [BATCH_CSV_HEADER.join(',')];
  for (const { name, analysis } of rows) {
    const keywords = (analysis.keywords ?? []).map((k) => k.keyword).join(', ');
    const colors = (analysis.colors ?? []).map((c) => c.hex).join(', ');
    lines.push([name, keywords, colors].map(csvField).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

/** `name` the first time, then "stem (2).ext", "stem (3).ext"... */
export function uniqueNamer(): (name: string) => string {
  const seen = new Map<string, number>();
  return (name) => {
    const count = (seen.get(name.toLowerCase()) ?? 0) + 1;
    seen.set(name.toLowerCase(), count);
    if (count === 1) return name;
    const dot = name.lastIndexOf('.');
    return dot > 0 ? `${name.slice(0, dot)} (${count})${name.slice(dot)}` : `${name} (${count})`;
  };
}

/** The zip of the succeeded images of `batchJobs` (in their order). */
export function batchZip(
  deps: { db: AppDb; storage: FileStorage },
  tool: BatchToolId,
  batchJobs: JobRow[],
): ReadableStream<Uint8Array> {
  const done = batchJobs.filter((job) => job.status === 'succeeded');
  return zipStream(async (add) => {
    const unique = uniqueNamer();
    if (tool === 'image-analyzer') {
      const rows = done.map((job) => ({
        name: job.sourceName ?? '',
        analysis: (job.result ?? {}) as Partial<Analysis>,
      }));
      add(BATCH_CSV_NAME, Buffer.from(analysisCsv(rows)));
      return;
    }
    const outputs = await filesOfJobs(
      deps.db,
      done.map((job) => job.id),
    );
    for (const job of done) {
      const resultIds = ((job.result ?? {}) as { files?: string[] }).files ?? [];
      for (const id of resultIds) {
        const file = outputs.find((f) => f.id === id);
        const bytes = file ? await deps.storage.get(file.storageKey) : null;
        if (!file || !bytes) continue;
        // The tool's own name, with the extension of what was stored (a provider may answer another type).
        const named = batchResultName(tool, job.sourceName ?? '') ?? `${stemOf(job.sourceName ?? '')}.bin`;
        add(unique(`${named.slice(0, named.lastIndexOf('.'))}.${extensionFor(file.contentType)}`), bytes);
      }
    }
  });
}
