// Worker leases: each worker process registers a random id and renews its heartbeat every few
// seconds, and the tool jobs it claims carry that id. A lease that lapses (the process was killed,
// its machine lost) tells the others that its jobs are orphaned (orphaned-jobs.ts). A graceful
// stop removes the lease once the queue has let go of its jobs.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { eq, lt, ne, sql } from 'drizzle-orm';
import type { AppDb } from '../../db/client';
import { workerLeases } from '../../db/schema';
import type { Logger } from '../../log';

export type WorkerLease = {
  id: string;
  /**
   * Whether this process's own heartbeats have kept succeeding for a whole lease period. After a
   * database outage every lease looks lapsed; nobody judges others until the living had time to renew.
   */
  canJudgeOthers(): boolean;
  /**
   * Whether no other worker's lease was alive at the last heartbeat: then every job is run here, and
   * a request of this process waiting for one hears its finish in-process (JobSignals).
   */
  alone(): boolean;
  /** Stops the heartbeat and removes the lease (its remaining jobs are then handed back at once). */
  stop(): Promise<void>;
};

export type LeaseSettings = {
  /** Seconds without a heartbeat after which a worker counts as gone. */
  leaseSeconds: number;
  /**
   * The database serves this process alone (PGlite, locked to one process): every other lease in
   * it was left by a process that is gone, so it is removed at once rather than left to lapse.
   */
  onlyProcess: boolean;
};

/** Heartbeats per lease period: a few may be late or lost before the lease lapses. */
const BEATS_PER_LEASE = 6;

export async function startWorkerLease(db: AppDb, logger: Logger, settings: LeaseSettings): Promise<WorkerLease> {
  const id = randomUUID();
  const leaseMs = settings.leaseSeconds * 1000;
  let othersAlive = true; // until the first heartbeat has counted them
  // The heartbeat also counts the other live leases (written out: in RETURNING drizzle drops table names).
  const beat = () =>
    db
      .insert(workerLeases)
      .values({ id, host: os.hostname(), pid: process.pid })
      .onConflictDoUpdate({ target: workerLeases.id, set: { heartbeatAt: sql`now()` } })
      .returning({
        others: sql<number>`(select count(*)::int from worker_leases other
          where other.id <> ${id}::uuid and other.heartbeat_at > now() - ${settings.leaseSeconds} * interval '1 second')`,
      })
      .then(
        ([row]) => {
          othersAlive = Number(row?.others ?? 1) > 0;
        },
        (error) => {
          othersAlive = true; // unknown: assume company
          throw error;
        },
      );
  await beat();
  if (settings.onlyProcess) {
    await db.delete(workerLeases).where(ne(workerLeases.id, id));
    othersAlive = false;
  }
  const beatMs = leaseMs / BEATS_PER_LEASE;
  let lastBeat = Date.now();
  // Healthy from the start; after missed beats (an outage), healthy again once a whole lease period has passed.
  let healthySince = lastBeat - leaseMs;
  let current: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (current) return;
    current = beat()
      .then(() => {
        const now = Date.now();
        if (now - lastBeat > 2 * beatMs) healthySince = now;
        lastBeat = now;
      })
      .catch((error) => logger.warn('worker heartbeat failed; retried', { workerId: id, error }))
      .finally(() => {
        current = null;
      });
  }, beatMs);
  timer.unref();
  return {
    id,
    canJudgeOthers: () => Date.now() - lastBeat <= 2 * beatMs && Date.now() - healthySince >= leaseMs,
    alone: () => !othersAlive,
    async stop() {
      clearInterval(timer);
      await current;
      await db.delete(workerLeases).where(eq(workerLeases.id, id));
    },
  };
}

/** Forgets leases silent for an hour: their jobs were handed back long before (a worker still alive renews its row). */
export async function forgetLongGoneLeases(db: AppDb): Promise<void> {
  await db.delete(workerLeases).where(lt(workerLeases.heartbeatAt, sql`now() - interval '1 hour'`));
}
