// The tool queue as /metrics reports it: how many jobs wait and how long the oldest has waited. One
// statement a scrape, on the queue's own partial index (`jobs_queue_order_idx`, status 'queued',
// which holds created_at): it reads the waiting rows only, never the jobs' history.
import { sql } from 'drizzle-orm';
import { type AppDb, executePrepared } from '../db/client';
import type { QueueSnapshot } from './metrics';

export async function readQueueSnapshot(db: AppDb): Promise<QueueSnapshot> {
  const { rows } = await executePrepared(
    db,
    // The state written out, not bound: a generic plan then still uses the partial index (as health's count).
    sql`select count(*)::int as depth,
       coalesce(extract(epoch from now() - min(created_at)), 0)::float8 as oldest
       from jobs where status = 'queued'`,
  );
  const [row] = rows;
  return { depth: Number(row?.depth ?? 0), oldestWaitingSeconds: Math.max(0, Number(row?.oldest ?? 0)) };
}
