// GET /api/batches/:id/download: the batch's results in one zip, each named after its input
// ("IMG_0412.jpg" -> "IMG_0412-background-removed.png", contract/batches.ts batchResultName; made
// safe to unzip, and a name met twice gets " (2)"), streamed one file at a time. An Image Analyzer batch is a CSV of file
// name, keywords and colours (the stock agencies' upload format) instead.
import { BATCH_CSV_HEADER, BATCH_CSV_NAME, type BatchToolId, batchResultName, stemOf } from '../../contract/batches';
import type { Analysis } from '../../contract/tool-responses';
import { filesOfJobs } from '../creations/creations-repository';
import type { AppDb } from '../db/client';
import type { JobRow } from '../jobs/queue/jobs-repository';
import { extensionFor, zipStream } from '../responses/zip-stream';
import type { FileStorage } from '../storage/storage';

/**
 * A field of a CSV row: a value a spreadsheet would read as a formula (it starts with `=`, `+`,
 * `-`, `@`, a tab or a carriage return: a leading tab or CR is trimmed to leave the `=`) gets a `'`
 * in front, so it shows as text (OWASP's CSV injection rule; a file name such as
 * `=HYPERLINK(...).png` is the user's to choose); then quoted when it holds a comma, a quote or a
 * line break (RFC 4180).
 */
export function csvField(value: string): string {
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

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

/**
 * What a zip entry's name must not keep: C0 controls, DEL and C1 controls (a CR or ESC in a name
 * shown by an unzip tool or a terminal), the bidi controls that make a name read otherwise than it
 * is (U+202E "gnp.exe"; U+202A-U+202E, U+2066-U+2069, LRM, RLM, ALM), and `:`, `/`, `\` (a drive
 * prefix "C:" or a folder on unzip).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it drops
const UNSAFE_NAME_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069:/\\]/g;

/**
 * A file name safe as a zip entry: NFC (macOS unzips "é" as one character whatever form it came
 * in), the characters above dropped, no leading dot (a hidden file) or space, and `fallback` when
 * nothing is left.
 */
export function safeFileName(name: string, fallback = 'image'): string {
  const safe = name
    .normalize('NFC')
    .replace(UNSAFE_NAME_CHARACTERS, '')
    .replace(/^[.\s]+/, '')
    .trimEnd();
  return safe || fallback;
}

/**
 * Each name made safe (safeFileName), then `name` the first time and "stem (2).ext",
 * "stem (3).ext"... after: names are compared as a Mac's disk does (NFC, any case), so no two
 * entries land on one file when unzipped.
 */
export function uniqueNamer(): (name: string) => string {
  const taken = new Set<string>();
  const counts = new Map<string, number>();
  return (unsafeName) => {
    const name = safeFileName(unsafeName);
    const key = name.toLowerCase();
    const dot = name.lastIndexOf('.');
    let count = counts.get(key) ?? 1;
    let candidate = name;
    // Counted past a name given as it is ("a (2).png" sent, then "a.png" twice).
    while (taken.has(candidate.toLowerCase())) {
      count += 1;
      candidate = dot > 0 ? `${name.slice(0, dot)} (${count})${name.slice(dot)}` : `${name} (${count})`;
    }
    counts.set(key, count);
    taken.add(candidate.toLowerCase());
    return candidate;
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
        // Made safe before its stem is taken, so a name of only unsafe characters becomes "image".
        const source = safeFileName(job.sourceName ?? '');
        const named = batchResultName(tool, source) ?? `${stemOf(source)}.bin`;
        add(unique(`${named.slice(0, named.lastIndexOf('.'))}.${extensionFor(file.contentType)}`), bytes);
      }
    }
  });
}
