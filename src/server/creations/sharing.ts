// Share links of creations: an unguessable token per shared job (192 random bits), off by default
// and revocable. The token names the job's outputs and nothing else of its owner.
import { randomBytes } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { SHARED_ROUTE_PREFIX } from '../../contract/creations';
import type { AppDb } from '../db/client';
import { jobs } from '../db/schema';
import type { JobRow } from '../jobs/queue/jobs-repository';

const TOKEN = /^[A-Za-z0-9_-]{32}$/;

export const isShareToken = (token: string) => TOKEN.test(token);

export const shareUrl = (appUrl: string, token: string) => `${appUrl.replace(/\/$/, '')}${SHARED_ROUTE_PREFIX}${token}`;

export const sharedFileUrl = (token: string, index: number) => `/api/shared/${token}/files/${index}`;

/**
 * Turns sharing on for the user's finished job and answers its token (the same one while it stays
 * on); null for no such job, 'unfinished' for a job that has no result yet.
 */
export async function shareJob(db: AppDb, jobId: string, userId: string): Promise<string | 'unfinished' | null> {
  const own = and(eq(jobs.id, jobId), eq(jobs.userId, userId));
  await db
    .update(jobs)
    .set({ shareToken: randomBytes(24).toString('base64url') })
    .where(and(own, eq(jobs.status, 'succeeded'), isNull(jobs.shareToken)));
  const [row] = await db.select({ token: jobs.shareToken }).from(jobs).where(own);
  if (!row) return null;
  return row.token ?? 'unfinished';
}

/** Turns sharing off; false for no such job. */
export async function unshareJob(db: AppDb, jobId: string, userId: string): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({ shareToken: null })
    .where(and(eq(jobs.id, jobId), eq(jobs.userId, userId)))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

export async function findSharedJob(db: AppDb, token: string): Promise<JobRow | null> {
  if (!isShareToken(token)) return null;
  const [row] = await db.select().from(jobs).where(eq(jobs.shareToken, token));
  return row ?? null;
}
