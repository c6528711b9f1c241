// A tool call answered with its image (issue 39), as remove.bg does: a client whose Accept prefers
// an image type gets a finished job's first output as the body, with the job, the tokens charged and
// the balance in headers. Everything else (a job still running: 202; a failure: 502; a refusal)
// stays JSON. Image Analyzer has no image: a call that accepts only images is refused (406) before
// anything is read or charged.
import type { Context } from 'hono';
import { downloadName } from '../../../contract/download-names';
import { formatOfType, withFormatExtension } from '../../../contract/output-files';
import type { ToolDefinition } from '../../../contract/tools';
import type { AppDb } from '../../db/client';
import type { FileStorage } from '../../storage/storage';
import { findOwnFile, type JobRow } from '../queue/jobs-repository';

export type ToolAnswerFormat = 'json' | 'image';

export const IMAGE_ANSWER_MESSAGES = {
  noImage: (tool: ToolDefinition) =>
    `${tool.title} answers keywords and colors as JSON, not an image. Please send Accept: application/json.`,
} as const;

type Range = { type: string; q: number; index: number };

/** The media ranges of an Accept header, lower case, with their weights (a malformed weight counts as 1). */
export function parseAccept(header: string): Range[] {
  return header
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((piece) => piece.trim());
      const weight = params.find((param) => /^q\s*=/i.test(param))?.replace(/^q\s*=\s*/i, '');
      const q = weight !== undefined && /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(weight) ? Number(weight) : 1;
      return { type: type.toLowerCase(), q, index };
    })
    .filter((range) => /^[\w.+*-]+\/[\w.+*-]+$/.test(range.type));
}

/** The range that decides how acceptable `type` is: the most specific one that matches it (RFC 9110 12.5.1). */
function decidingRange(ranges: Range[], type: string): Range | null {
  const main = type.split('/')[0];
  const specificity = (range: Range) =>
    range.type === type ? 3 : range.type === `${main}/*` ? 2 : range.type === '*/*' ? 1 : 0;
  let best: Range | null = null;
  for (const range of ranges) {
    const rank = specificity(range);
    if (rank === 0) continue;
    if (!best || rank > specificity(best) || (rank === specificity(best) && range.q > best.q)) best = range;
  }
  return best;
}

/**
 * How a call of `tool` is answered when finished, from its Accept header: an image when an image
 * type is preferred to JSON (a tie goes to the one the client names first, and to the image over a
 * bare wildcard), else JSON as always (no header, `*\/*`, `application/json`, a browser's `text/html`).
 * 'not-acceptable': the tool has no image and the client takes nothing but images.
 */
export function toolAnswerFormat(
  accept: string | undefined,
  tool: ToolDefinition,
): ToolAnswerFormat | 'not-acceptable' {
  if (!accept?.trim()) return 'json';
  const ranges = parseAccept(accept);
  const images = ranges.filter((range) => range.type.startsWith('image/') && range.q > 0);
  if (images.length === 0) return 'json';
  const image = images.reduce((best, range) => (range.q > best.q ? range : best));
  const json = decidingRange(ranges, 'application/json');
  const jsonQ = json?.q ?? 0;
  const prefersImage =
    image.q > jsonQ || (image.q === jsonQ && (json?.type !== 'application/json' || image.index < json.index));
  if (!prefersImage) return 'json';
  if (tool.response !== 'analysis') return 'image';
  return jsonQ > 0 ? 'json' : 'not-acceptable';
}

/** The first output file of a finished job (the order the tool produced them in). */
const firstOutputId = (job: JobRow) => (job.result as { files?: string[] } | null)?.files?.[0] ?? null;

/**
 * The succeeded job's first output as the answer's body, read from storage as GET /api/files/:id
 * reads it (file-routes.ts); null when it is gone (deleted with its account meanwhile).
 */
export async function imageAnswer(
  c: Context,
  deps: { db: AppDb; storage: FileStorage },
  answer: { tool: ToolDefinition; job: JobRow; charged: number; balance: number; demo: boolean },
): Promise<Response | null> {
  const { tool, job } = answer;
  const fileId = firstOutputId(job);
  const file = fileId ? await findOwnFile(deps.db, fileId, job.userId) : null;
  const bytes = file ? await deps.storage.get(file.storageKey) : null;
  if (!file || !bytes) return null;
  const format = formatOfType(file.contentType);
  const specName = downloadName(tool.id, 1) ?? 'image';
  const name = format ? withFormatExtension(specName, format) : specName;
  return c.body(new Uint8Array(bytes), 200, {
    'Content-Type': file.contentType,
    'Content-Length': String(bytes.length),
    'Content-Disposition': `inline; filename="${name}"`,
    'Cache-Control': 'private, no-store',
    'X-Job-Id': job.id,
    'X-Tokens-Charged': String(answer.charged),
    'X-Tokens-Remaining': String(answer.balance),
    'X-Demo': String(answer.demo),
  });
}
