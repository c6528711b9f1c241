// GET /api/batches/:id/download: the batch's results in one zip, each named after its input
// ("IMG_0412.jpg" -> "IMG_0412-background-removed.png", contract/batches.ts batchResultName; made
// safe to unzip, and a name met twice gets " (2)"), streamed one file at a time. An Image Analyzer batch is a CSV of file
// name, keywords and colours (the stock agencies' upload format) instead. Every zip ends with a
// README.txt that says what became of each image the batch holds (issue 54): done and where it is in
// the zip, still waiting or running, failed or refused with the server's sentence, or never sent.
import {
  BATCH_CSV_HEADER,
  BATCH_CSV_NAME,
  BATCH_README_NAME,
  type BatchToolId,
  batchResultName,
  stemOf,
} from '../../contract/batches';
import type { Analysis } from '../../contract/tool-responses';
import { toolById } from '../../contract/tools';
import { filesOfJobs } from '../creations/creations-repository';
import type { AppDb } from '../db/client';
import type { JobRow } from '../jobs/queue/jobs-repository';
import { extensionFor, zipStream } from '../responses/zip-stream';
import type { FileStorage } from '../storage/storage';
import { type BatchImage, imagesOfBatch } from './batch-images';
import type { BatchRow } from './batch-repository';

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

const imagesText = (count: number) => `${count} ${count === 1 ? 'image' : 'images'}`;

/** A sentence on one line (a README line per image). */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** "3. IMG_0413.jpg": its place (from 1: names may repeat) and its name as the zip would keep it. */
const imageLine = (image: BatchImage) =>
  `  ${image.item + 1}. ${image.name === null ? `Image ${image.item + 1}` : safeFileName(image.name)}`;

/**
 * The README.txt of a batch's zip: every image of the batch by what became of it, in its order.
 * `inZip`: the entries each done image has in this zip (its result, or the CSV for an analysis).
 */
export function batchReadme(tool: BatchToolId, images: readonly BatchImage[], inZip: ReadonlyMap<number, string[]>) {
  const { title, failureMessage } = toolById(tool);
  const state = (image: BatchImage) => (image.state === 'sent' ? image.job.status : image.state);
  const of = (...states: string[]) => images.filter((image) => states.includes(state(image)));
  const done = of('succeeded');
  const running = of('queued', 'running');
  const failed = of('failed', 'refused');
  const notSent = of('not-sent');
  const lines = [`${title}: a batch of ${imagesText(images.length)}.`];
  if (running.length > 0)
    lines.push(
      `When this zip was made, ${imagesText(running.length)} ${running.length === 1 ? 'was' : 'were'} still waiting or running: download the batch again when ${running.length === 1 ? 'it is' : 'they are'} done.`,
    );
  if (done.length > 0) {
    lines.push('', `Done (${done.length}), in this zip:`);
    for (const image of done) {
      const entries = inZip.get(image.item) ?? [];
      lines.push(
        `${imageLine(image)} -> ${entries.length > 0 ? entries.join(', ') : 'missing: download the batch again'}`,
      );
    }
  }
  if (running.length > 0) {
    lines.push('', `Still waiting or running (${running.length}), not in this zip yet:`);
    for (const image of running) lines.push(imageLine(image));
  }
  if (failed.length > 0) {
    lines.push('', `Failed (${failed.length}), nothing charged for them:`);
    for (const image of failed) {
      const [why, note] =
        image.state !== 'sent'
          ? [image.state === 'refused' ? image.error : failureMessage, 'refused when it was sent, not charged']
          : [image.job.error ?? failureMessage, image.job.charged > 0 ? 'tokens given back' : 'not charged'];
      lines.push(`${imageLine(image)}: ${oneLine(why)} (${note})`);
    }
  }
  if (notSent.length > 0) {
    lines.push('', `Not sent (${notSent.length}), nothing charged for them:`);
    for (const image of notSent) lines.push(imageLine(image));
    lines.push(
      '  No image came for these from the page that started the batch. That page sends the images one by one while it stays open: if it was closed before it sent these, run them again in a new batch.',
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * The zip of the batch's done images (in their order), then its README.txt, which lists every
 * image of the batch: done, still waiting or running, failed, refused, or never sent.
 */
export function batchZip(
  deps: { db: AppDb; storage: FileStorage },
  tool: BatchToolId,
  batch: Pick<BatchRow, 'size' | 'images'>,
  batchJobs: JobRow[],
): ReadableStream<Uint8Array> {
  const done = batchJobs.filter((job) => job.status === 'succeeded');
  return zipStream(async (add) => {
    const unique = uniqueNamer();
    unique(BATCH_README_NAME); // kept for the README: no result takes its name
    /** Each done image's entries, by its place. */
    const inZip = new Map<number, string[]>();
    // A tool whose results are analyses (the Image Analyzer) gives the batch one CSV of them.
    if (toolById(tool).response === 'analysis') {
      const rows = done.map((job) => ({
        name: job.sourceName ?? '',
        analysis: (job.result ?? {}) as Partial<Analysis>,
      }));
      add(BATCH_CSV_NAME, Buffer.from(analysisCsv(rows)));
      for (const job of done) inZip.set(job.batchItem ?? -1, [BATCH_CSV_NAME]);
    } else {
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
          const entry = unique(`${named.slice(0, named.lastIndexOf('.'))}.${extensionFor(file.contentType)}`);
          add(entry, bytes);
          inZip.set(job.batchItem ?? -1, [...(inZip.get(job.batchItem ?? -1) ?? []), entry]);
        }
      }
    }
    add(BATCH_README_NAME, Buffer.from(batchReadme(tool, imagesOfBatch(batch, batchJobs), inZip)));
  });
}
