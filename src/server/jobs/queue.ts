// The queue of the system's own jobs (the account setup, the ping): pg-boss on the application's own
// database (PGlite or PostgreSQL), so a job and the rows it touches live in one place and survive
// restarts together. Tool jobs have their queue in the `jobs` table (decision 037).
import PgBoss from 'pg-boss';
import type { Database, SqlExecutor } from '../db/client';
import type { Logger } from '../log';

export const QUEUE_SCHEMA = 'pgboss';

/** Every queue the system uses; they are created at start so senders and workers agree. */
export const QUEUE_NAMES = {
  /** A trivial internal job: proves that a sent job reaches a worker and comes back. */
  ping: 'system-ping',
  /** After sign-up: the payment customer and the verification mail, retried until they succeed. */
  accountSetup: 'account-setup',
} as const;
// Tool jobs are not here: their queue is the `jobs` table itself (decision 037, jobs-repository.ts).

type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export type QueueSettings = {
  /** How often pg-boss looks for expired jobs (a dead worker's) and tidies up. */
  maintenanceIntervalSeconds: number;
};

export const DEFAULT_QUEUE_SETTINGS: QueueSettings = { maintenanceIntervalSeconds: 60 };

/** Retry policy per queue (pg-boss applies it to every job sent to the queue). */
const QUEUE_OPTIONS: Record<QueueName, Omit<PgBoss.Queue, 'name'>> = {
  'system-ping': { retryLimit: 0 },
  // 10 tries with exponential backoff from 5 s: about 1.5 hours before giving up (and logging).
  'account-setup': { retryLimit: 10, retryDelay: 5, retryBackoff: true },
};

export type Queue = PgBoss;

export async function startQueue(
  database: Database,
  logger: Logger,
  settings: QueueSettings = DEFAULT_QUEUE_SETTINGS,
): Promise<Queue> {
  // pg-boss completes or fails a job its handler finished without awaiting the statement
  // (manager.js work): once the queue has stopped (a handler may outlive the stop's 10 s) and the
  // database is closed, that statement's refusal would be an unhandled rejection. Nothing can be
  // written then anyway; the job stays active and expires into a retry. The answer is the one such a
  // statement gives when it changed nothing (pg-boss reads its count).
  const executeSql: SqlExecutor = async (text, values) => {
    try {
      return await database.executeSql(text, values);
    } catch (error) {
      if (stoppedQueues.has(boss)) return { rows: [{ count: 0 }] };
      throw error;
    }
  };
  const boss = new PgBoss({
    db: { executeSql },
    schema: QUEUE_SCHEMA,
    // One process may keep the queue tidy at a time; pg-boss elects it through the database.
    supervise: true,
    maintenanceIntervalSeconds: settings.maintenanceIntervalSeconds,
    schedule: false,
  });
  boss.on('error', (error) => logger.error('queue error', { error }));
  await boss.start();
  for (const name of Object.values(QUEUE_NAMES)) {
    // createQueue keeps an existing queue as it is; updateQueue brings its policy up to date.
    await boss.createQueue(name, { name, ...QUEUE_OPTIONS[name] });
    await boss.updateQueue(name, { name, ...QUEUE_OPTIONS[name] });
  }
  await ensureQueueOrderIndex(database);
  return boss;
}

/** Our index on pg-boss's waiting jobs, in the order its fetch takes them (see ensureQueueOrderIndex). */
export const QUEUE_ORDER_INDEX = 'job_fetch_order';

/**
 * pg-boss 10 fetches "the highest priority, then the oldest" waiting job, but its own index on
 * waiting jobs is keyed by start time, so every fetch sorts the whole backlog: at 10,000 queued
 * jobs send + fetch + complete ran about 5x slower than on an empty queue, exactly when the queue
 * must drain (bench/queue-depth). An index in the fetch's own order lets PostgreSQL read the first
 * row instead. Made on the partitioned parent, so every queue's partition gets it, including the
 * partitions pg-boss attaches later.
 */
async function ensureQueueOrderIndex(database: Database): Promise<void> {
  await database.executeSql(
    `create index if not exists ${QUEUE_ORDER_INDEX} on ${QUEUE_SCHEMA}.job (name, priority desc, created_on, id) where state < 'active'`,
  );
}

const stoppedQueues = new WeakSet<Queue>();

export async function stopQueue(queue: Queue): Promise<void> {
  // The database is closed by its owner, not by pg-boss.
  await queue.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
  stoppedQueues.add(queue);
}
