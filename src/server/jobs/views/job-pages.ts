// A user's jobs page by page, newest first: GET /api/jobs and My Creations (creations/routes.ts,
// the account export) alike. Pages are ordered by (created_at, id) and read through
// jobs_user_created_idx, so a page costs the same however many jobs the user has; the cursor
// carries created_at to the microsecond, its own precision, so that no job is skipped or repeated
// between pages.
import { and, desc, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { isUuid } from '../../db/ids';
import { jobs } from '../../db/schema';
import type { JobRow } from '../queue/jobs-repository';

/** Where a page starts: after this job, by its created_at in microseconds since 1970 (a whole number) and its id. */
export type PageCursor = { createdAtUs: bigint; id: string };

/** The cursor is opaque to clients: the last job's creation time (in microseconds) and id. */
export const encodePageCursor = (c: PageCursor) => Buffer.from(`${c.createdAtUs}|${c.id}`).toString('base64url');

/** A cursor from encodePageCursor (or an earlier build's, to the millisecond); null if it is none. */
export function decodePageCursor(raw: string): PageCursor | null {
  const [time = '', id] = Buffer.from(raw, 'base64url').toString().split('|');
  if (!id || !isUuid(id)) return null;
  if (/^\d{1,16}$/.test(time)) return { createdAtUs: BigInt(time), id };
  // A cursor of an earlier build: an ISO time, to the millisecond.
  return timeCursor(time, id);
}

/** The smallest id: a cursor with it starts at the jobs created strictly before its time. */
const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * A cursor at an ISO time, to the millisecond (what an earlier build answered as `next`: GET /api/jobs
 * alone, or with an id in My Creations); without an id, the page starts strictly before that time.
 */
export function timeCursor(iso: string, id = NO_ID): PageCursor | null {
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(iso) ? new Date(iso).getTime() : Number.NaN;
  return Number.isNaN(ms) ? null : { createdAtUs: BigInt(ms) * 1000n, id };
}

export const PAGE_LIMIT_ERROR = 'limit: must be a whole number from 1 to 100';

/** A page's size from the query (20 when absent); null, answered 400, unless a whole number from 1 to 100. */
export function pageLimit(raw: string | undefined): number | null {
  const limit = raw === undefined ? 20 : Number(raw);
  return Number.isInteger(limit) && limit >= 1 && limit <= 100 ? limit : null;
}

/** A job of a page, with the cursor that starts the page after it. */
export type PageJob = JobRow & { cursor: PageCursor };

/** The user's jobs, newest first, after `cursor`, optionally of one tool. */
export async function listPageJobs(
  db: AppDb,
  userId: string,
  options: { tool: string | null; cursor: PageCursor | null; limit: number },
): Promise<PageJob[]> {
  const rows = await jobPageQuery(db, userId, options);
  return rows.map(({ createdAtUs, ...job }) => ({ ...job, cursor: { createdAtUs: BigInt(createdAtUs), id: job.id } }));
}

/**
 * One page for a client: up to `limit` jobs and the cursor of the next page (null on the last).
 * One more job than shown is read to know whether a next page exists.
 */
export async function listJobPage(
  db: AppDb,
  userId: string,
  options: { tool: string | null; cursor: PageCursor | null; limit: number },
): Promise<{ jobs: PageJob[]; next: string | null }> {
  const rows = await listPageJobs(db, userId, { ...options, limit: options.limit + 1 });
  const shown = rows.slice(0, options.limit);
  const last = shown.at(-1);
  return { jobs: shown, next: rows.length > options.limit && last ? encodePageCursor(last.cursor) : null };
}

/** listPageJobs' statement, not yet run (its plan is tested: an index read, no sort). */
export function jobPageQuery(
  db: AppDb,
  userId: string,
  options: { tool: string | null; cursor: PageCursor | null; limit: number },
) {
  const after: SQL | undefined = options.cursor
    ? sql`(${jobs.createdAt}, ${jobs.id}) < (timestamptz 'epoch' + ${String(options.cursor.createdAtUs)}::bigint * interval '1 microsecond', ${options.cursor.id}::uuid)`
    : undefined;
  return db
    .select({
      ...getTableColumns(jobs),
      createdAtUs: sql<string>`(extract(epoch from ${jobs.createdAt}) * 1000000)::bigint::text`,
    })
    .from(jobs)
    .where(and(eq(jobs.userId, userId), options.tool ? eq(jobs.tool, options.tool) : undefined, after))
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(options.limit);
}
