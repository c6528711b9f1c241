// The job queue: pg-boss on the application's own database (PGlite or PostgreSQL), so a job and
// the rows it touches live in one place and survive restarts together.
import PgBoss from 'pg-boss';
import type { Database } from '../db/client';
import type { Logger } from '../log';

export const QUEUE_SCHEMA = 'pgboss';

/** Every queue the system uses; they are created at start so senders and workers agree. */
export const QUEUE_NAMES = {
  /** A trivial internal job: proves that a sent job reaches a worker and comes back. */
  ping: 'system-ping',
  /** After sign-up: the payment customer and the verification mail, retried until they succeed. */
  accountSetup: 'account-setup',
} as const;

type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

/** Retry policy per queue (pg-boss applies it to every job sent to the queue). */
const QUEUE_OPTIONS: Record<QueueName, Omit<PgBoss.Queue, 'name'>> = {
  'system-ping': { retryLimit: 0 },
  // 10 tries with exponential backoff from 5 s: about 1.5 hours before giving up (and logging).
  'account-setup': { retryLimit: 10, retryDelay: 5, retryBackoff: true },
};

export type Queue = PgBoss;

export async function startQueue(database: Database, logger: Logger): Promise<Queue> {
  const boss = new PgBoss({
    db: { executeSql: database.executeSql },
    schema: QUEUE_SCHEMA,
    // One process may keep the queue tidy at a time; pg-boss elects it through the database.
    supervise: true,
    schedule: false,
  });
  boss.on('error', (error) => logger.error('queue error', { error }));
  await boss.start();
  for (const name of Object.values(QUEUE_NAMES)) {
    // createQueue keeps an existing queue as it is; updateQueue brings its policy up to date.
    await boss.createQueue(name, { name, ...QUEUE_OPTIONS[name] });
    await boss.updateQueue(name, { name, ...QUEUE_OPTIONS[name] });
  }
  return boss;
}

export async function stopQueue(queue: Queue): Promise<void> {
  // The database is closed by its owner, not by pg-boss.
  await queue.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
}
