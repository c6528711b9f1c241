// bench/queue-depth: does the queue stay fast when a backlog builds up? One worker loop queues a
// job, takes the next one and finishes it (the queue's part of a tool call), for a fixed time,
// with 0, 1,000 and 10,000 jobs already waiting (spread over fair-queue rounds, as a busy day
// leaves them). Prints ops/s per depth and the ratio to the empty queue, on PGlite and, when a URL
// is given, on PostgreSQL: the tool jobs' queue in `jobs` (decision 037: a queued row, the take
// that claims it, the finish), and a waiting page's read of its place.
//   npm run bench:queue -- [--seconds 5] [--depths 0,1000,10000] [--postgres postgres://...]
import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, migrateDatabase, openPostgres } from '../src/server/db/client';
import { findJob, markSucceeded, takeNextJob } from '../src/server/jobs/queue/jobs-repository';
import { queuePosition } from '../src/server/jobs/views/job-view';
import { openBenchPglite } from './bench-database';

const argument = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const SECONDS = Number(argument('seconds') ?? 5);
const DEPTHS = (argument('depths') ?? '0,1000,10000').split(',').map(Number);
const POSTGRES = argument('postgres') ?? process.env.TEST_DATABASE_URL;
/** A busy queue's backlog spans this many fair-queue rounds. */
const ROUNDS = 50;

/**
 * Runs `operation` (queue + take + finish of one job) one after another for SECONDS: the rate a
 * lone worker drains at.
 */
async function measure(operation: (round: number) => Promise<void>): Promise<number> {
  let operations = 0;
  const end = performance.now() + SECONDS * 1000;
  const started = performance.now();
  while (performance.now() < end) {
    await operation(operations % ROUNDS);
    operations++;
  }
  return operations / ((performance.now() - started) / 1000);
}

/** A job queued this very microsecond may not be seen yet: ask again. */
async function untilAnswered<T>(fetch: () => Promise<T | undefined | null>): Promise<T> {
  for (let tries = 0; tries < 100; tries++) {
    const answer = await fetch();
    if (answer) return answer;
  }
  throw new Error('the queue answered no job though one was just sent');
}

const BENCH_USER = 'bench-queue-user';

/** A tool job waiting in the queue, as the charge leaves it (the columns the queue reads). */
const queuedJobRow = (id: SQL, round: SQL, user: SQL = sql`${BENCH_USER}`) =>
  sql`${id}, ${user}, 'text-to-pic', 1, 1, '{"prompt":"bench"}'::jsonb, 'demo', 'h', ${round}`;
const jobColumns = sql.raw('(id, user_id, tool, cost, charged, input, provider, request_hash, queue_round)');

/**
 * The backlog in `jobs` (decision 037), spread over the rounds. A user may have at most
 * MAX_ACTIVE_JOBS_PER_USER (10) jobs queued or running, so a backlog of N is N / 10 users' at least:
 * the bench's own loop is one more user's.
 */
async function fillJobs(database: Database, depth: number): Promise<void> {
  await migrateDatabase(database);
  await database.db.execute(
    sql`insert into "user" (id, name, email) values (${BENCH_USER}, 'Bench', 'bench-queue@example.com')`,
  );
  await database.db.execute(
    sql`insert into "user" (id, name, email) select 'waiting-' || u, 'W', 'waiting-' || u || '@example.com'
      from generate_series(0, ${Math.ceil(depth / BACKLOG_JOBS_PER_USER)}) as u`,
  );
  await database.db.execute(
    sql`insert into jobs ${jobColumns}
      select ${queuedJobRow(sql`gen_random_uuid()`, sql`(i % ${ROUNDS})::int`, sql`'waiting-' || (i / ${BACKLOG_JOBS_PER_USER})`)}
      from generate_series(0, ${depth - 1}) as i`,
  );
  await database.db.execute(sql`analyze jobs`);
}
const BACKLOG_JOBS_PER_USER = 10;

/** The tool jobs' queue (decision 037): a job queued (the charge's insert), taken and claimed, finished. */
const withJobsQueue = (database: Database) => async (round: number) => {
  const id = randomUUID();
  await database.db.execute(
    sql`insert into jobs ${jobColumns} values (${queuedJobRow(sql`${id}::uuid`, sql`${round}::int`)})`,
  );
  const taken = await untilAnswered(() => takeNextJob(database.db, null));
  const change = { result: { files: [] }, provider: 'demo', outputs: [] };
  await markSucceeded(database.db, taken.job, change, { run: { attempt: taken.job.attempts } });
};

/**
 * What a waiting user's page costs at this depth: it asks every 1.5 s, and each answer counts the
 * jobs ahead (job-view.ts queuePosition, at most QUEUE_AHEAD_COUNTED_UP_TO). Times the count for
 * a job behind the whole backlog.
 */
async function positionOfLast(database: Database): Promise<{ position: number | null; ms: number }> {
  const id = randomUUID();
  await database.db.execute(
    sql`insert into jobs ${jobColumns} values (${queuedJobRow(sql`${id}::uuid`, sql`${ROUNDS}::int`)})`,
  );
  const job = await findJob(database.db, id);
  if (!job) throw new Error('the job was not inserted');
  let position: number | null = null;
  const started = performance.now();
  for (let i = 0; i < POSITION_READS; i++) position = await queuePosition(database.db, job);
  return { position, ms: (performance.now() - started) / POSITION_READS };
}
const POSITION_READS = 50;

type Backend = { name: string; open: () => Promise<Database & { dispose?: () => Promise<void> }> };

function pgliteBackend(): Backend {
  return { name: 'PGlite', open: () => openBenchPglite() };
}

function postgresBackend(url: string): Backend {
  return {
    name: 'PostgreSQL',
    async open() {
      // A fresh database per run, so depths do not add up across runs.
      const name = `bench_queue_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const target = new URL(url);
      target.pathname = `/${name}`;
      const database = await openPostgres(target.toString());
      return {
        ...database,
        async dispose() {
          await database.close();
          const again = new pg.Client({ connectionString: url });
          await again.connect();
          await again.query(`drop database if exists ${name}`);
          await again.end();
        },
      };
    },
  };
}

async function run(backend: Backend) {
  const rates: number[] = [];
  for (const depth of DEPTHS) {
    const database = await backend.open();
    try {
      await fillJobs(database, depth);
      const rate = await measure(withJobsQueue(database));
      rates.push(rate);
      const ratio = (rates[0] ?? rate) / rate;
      console.log(
        `${backend.name.padEnd(11)} ${'jobs table'.padEnd(12)} depth ${String(depth).padStart(6)}  ${rate.toFixed(0).padStart(5)} ops/s   empty/this ${ratio.toFixed(2)}x`,
      );
      const { position, ms } = await positionOfLast(database);
      console.log(
        `${backend.name.padEnd(11)} ${'position'.padEnd(12)} depth ${String(depth).padStart(6)}  ${ms.toFixed(2).padStart(5)} ms a read of the last job's place (${position})`,
      );
    } finally {
      await (database.dispose?.() ?? database.close());
    }
  }
}

const backends = [pgliteBackend(), ...(POSTGRES ? [postgresBackend(POSTGRES)] : [])];
if (!POSTGRES) console.log('(PostgreSQL skipped: pass --postgres <url> or set TEST_DATABASE_URL)');
console.log(`queue + take + finish, one worker, ${SECONDS} s per depth`);
for (const backend of backends) await run(backend);
