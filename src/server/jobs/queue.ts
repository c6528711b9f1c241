// The job queue: pg-boss on the application's own database (PGlite or PostgreSQL), so a job and
// the rows it touches live in one place and survive restarts together.
import { type SQL, sql } from 'drizzle-orm';
import PgBoss from 'pg-boss';
import { type AppDb, type Database, executePrepared, type SqlExecutor } from '../db/client';
import type { Logger } from '../log';

export const QUEUE_SCHEMA = 'pgboss';

/** Every queue the system uses; they are created at start so senders and workers agree. */
export const QUEUE_NAMES = {
  /** A trivial internal job: proves that a sent job reaches a worker and comes back. */
  ping: 'system-ping',
  /** After sign-up: the payment customer and the verification mail, retried until they succeed. */
  accountSetup: 'account-setup',
  /** One tool job: run the provider, store the outputs, or fail and refund. */
  toolRun: 'tool-run',
  /** Tool jobs whose tries are all used up (or that expired after a crash): refunded here. */
  toolRunDead: 'tool-run-dead',
} as const;

type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export type QueueSettings = {
  /** How long a tool job may run before pg-boss considers its worker dead and retries it. */
  toolJobExpireSeconds: number;
  /** How often pg-boss looks for expired jobs (a dead worker's) and tidies up. */
  maintenanceIntervalSeconds: number;
};

export const DEFAULT_QUEUE_SETTINGS: QueueSettings = { toolJobExpireSeconds: 15 * 60, maintenanceIntervalSeconds: 60 };

/** Retry policy per queue (pg-boss applies it to every job sent to the queue). */
const queueOptions = (settings: QueueSettings): Record<QueueName, Omit<PgBoss.Queue, 'name'>> => ({
  'system-ping': { retryLimit: 0 },
  // 10 tries with exponential backoff from 5 s: about 1.5 hours before giving up (and logging).
  'account-setup': { retryLimit: 10, retryDelay: 5, retryBackoff: true },
  // A retryable provider failure, or a worker that died mid-job (the job expires), is tried twice
  // more; then the job lands in tool-run-dead, which refunds it.
  'tool-run-dead': { retryLimit: 5, retryDelay: 5 },
  'tool-run': {
    retryLimit: 2,
    retryDelay: 5,
    retryBackoff: true,
    expireInSeconds: settings.toolJobExpireSeconds,
    deadLetter: 'tool-run-dead',
  },
});

export type Queue = PgBoss;

export async function startQueue(
  database: Database,
  logger: Logger,
  settings: QueueSettings = DEFAULT_QUEUE_SETTINGS,
): Promise<Queue> {
  const options = queueOptions(settings);
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
  // Dead-letter queues first: a queue may only name one that exists.
  const names = Object.values(QUEUE_NAMES).sort((a, b) => Number(b.endsWith('-dead')) - Number(a.endsWith('-dead')));
  for (const name of names) {
    // createQueue keeps an existing queue as it is; updateQueue brings its policy up to date.
    await boss.createQueue(name, { name, ...options[name] });
    await boss.updateQueue(name, { name, ...options[name] });
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

// The tool-run queue is consumed by our own statements (docs/decisions/027-own-tool-queue-consumer.md):
// pg-boss still sends, retries, expires and dead-letters its jobs, but its fetch rides on the
// worker's claim of the job row and its completion on the finish, one statement each instead of
// two. These are pg-boss 10's own fetch and complete (node_modules/pg-boss/src/plans.js
// fetchNextJob, completeJobs) for a standard-policy queue and one job at a time; a pg-boss upgrade
// must check them (test/integration/tool-queue.test.ts runs them against the installed pg-boss).
const toolRunJobs = sql.raw(`${QUEUE_SCHEMA}.job`);
const toolRunName = QUEUE_NAMES.toolRun;

/**
 * CTE `taken(id, data, retry_count, retry_limit)`: the next due tool-run job, made active (a retry
 * counted as pg-boss counts it), or no row. In the order of the index above: priority, then oldest.
 */
export const takeNextToolRunCtes: SQL = sql`next_in_queue as (
    select id from ${toolRunJobs}
    where name = ${toolRunName} and state < 'active' and start_after < now()
    order by priority desc, created_on, id
    limit 1
    for update skip locked),
  taken as (
    update ${toolRunJobs} q set state = 'active', started_on = now(),
      retry_count = case when q.started_on is not null then q.retry_count + 1 else q.retry_count end
    from next_in_queue where q.name = ${toolRunName} and q.id = next_in_queue.id
    returning q.id, q.data, q.retry_count, q.retry_limit)`;

/**
 * The statement that sends tool-run jobs: pg-boss 10's insertJob with no per-job options and no
 * constructor defaults (ours sets none), so every policy comes from the queue's row (`queueOptions`
 * above): the dead letter, the expiry, the retention, the retries. `source` names a CTE of the
 * caller's with `id` (the job's id, also the queue job's), `priority` and `claimed`: a job handed
 * straight to a worker of the sending process goes in as that worker's take would leave it (active,
 * started now, no retry counted). Answers `id` and `retry_limit`.
 */
export const sendToolRunsSql = (source: SQL): SQL =>
  sql`insert into ${toolRunJobs} (id, name, data, priority, start_after, dead_letter, expire_in, keep_until,
      retry_limit, retry_delay, retry_backoff, policy, state, started_on)
    select s.id, q.name, jsonb_build_object('jobId', s.id), s.priority, now(), q.dead_letter,
      coalesce(q.expire_seconds * interval '1s', interval '15 minutes'),
      now() + cast(coalesce((q.retention_minutes * 60)::text, '14 days') as interval),
      coalesce(q.retry_limit, 2),
      case when coalesce(q.retry_backoff, false) then greatest(q.retry_delay, 1) else coalesce(q.retry_delay, 0) end,
      coalesce(q.retry_backoff, false),
      q.policy,
      (case when s.claimed then 'active' else 'created' end)::${sql.raw(`${QUEUE_SCHEMA}.job_state`)},
      case when s.claimed then now() end
    from ${source} s join ${sql.raw(`${QUEUE_SCHEMA}.queue`)} q on q.name = ${toolRunName}
    returning id, retry_limit`;

/** Whether a tool-run job waits and is due (other than `except`: a statement's snapshot still counts its own take as waiting). */
export const toolRunsDue = (except: SQL = sql`null`): SQL =>
  sql`exists (select 1 from ${toolRunJobs} w where w.name = ${toolRunName} and w.state < 'active' and w.start_after < now() and w.id is distinct from ${except})`;

/** The statement that completes an active tool-run job (`when`: a condition on the statement's other CTEs). */
export const completeToolRunSql = (jobId: string, when: SQL = sql`true`): SQL =>
  sql`update ${toolRunJobs} set state = 'completed', completed_on = now()
    where name = ${toolRunName} and id = ${jobId}::uuid and state = 'active' and ${when}`;

/** Completes the tool-run job a worker took, on its own (when no finish statement carries it). */
export async function completeToolRun(db: Pick<AppDb, '_'>, jobId: string): Promise<void> {
  await executePrepared(db, completeToolRunSql(jobId));
}

const stoppedQueues = new WeakSet<Queue>();

export async function stopQueue(queue: Queue): Promise<void> {
  // The database is closed by its owner, not by pg-boss.
  await queue.stop({ graceful: true, wait: true, close: false, timeout: 10_000 });
  stoppedQueues.add(queue);
}
