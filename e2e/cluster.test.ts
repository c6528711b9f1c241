// Cluster mode on PostgreSQL: two web and two worker processes (`npm start -- --web` / `--worker`)
// sharing one database and one S3-compatible bucket (s3rver on 127.0.0.1), each with its own
// DATA_DIR: nothing one process needs lives on another's disk or in its memory. Several users call tools concurrently through both
// web processes: every job completes once, no balance goes below zero, every balance equals its
// ledger. Then both workers are killed with SIGKILL in the middle of a job, a new worker starts,
// and it runs that job again once the dead workers' leases lapse (the queue's own 15-minute expiry is
// not waited for), which ends completed or refunded: nothing lost, nothing stuck.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeS3, startFakeS3 } from '../test/support/fake-s3';
import { databaseUrl, dropPostgresDatabases } from '../test/support/template-db';
import { PAID_CALL, PAID_TOOL_ENV } from './support/paid-call';
import { cookieHeaderFrom, type ServerProcess, startServerProcess } from './support/server';

const ADMIN_URL = process.env.TEST_DATABASE_URL;
const ORIGIN = 'http://cluster.test';
// The small cat: the run is killed as soon as a worker holds it (while the model loads), so its
// size only sets how long the run after the restart takes.
const IMAGE = `data:image/png;base64,${readFileSync(path.resolve(import.meta.dirname, 'fixtures/chelsea-small.png')).toString('base64')}`;

describe.runIf(ADMIN_URL)('cluster mode: 2 web + 2 worker processes on PostgreSQL', () => {
  const name = `pp_cluster_${Date.now()}`;
  let db: pg.Client;
  const web: ServerProcess[] = [];
  const workers: ServerProcess[] = [];
  const killed: ServerProcess[] = [];
  let env: Record<string, string>;
  let s3: FakeS3;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    s3 = await startFakeS3();
    env = {
      ...s3.env,
      DATABASE_URL: databaseUrl(ADMIN_URL as string, name),
      BETTER_AUTH_SECRET: 'cluster-test-secret-of-at-least-32-characters',
      APP_URL: ORIGIN,
      LOG_LEVEL: 'info',
      TRUST_PROXY_HOPS: '1',
      // 25 concurrent calls per user test the balance, not the per-user job cap.
      MAX_ACTIVE_JOBS_PER_USER: '100',
      QUEUE_POLL_SECONDS: '0.5',
      // A killed worker's jobs are handed back 10 s after its last heartbeat, not 30: the hand-back is
      // what the test checks, not the lease's length.
      WORKER_LEASE_SECONDS: '10',
      // The upscaler on the local engine: paid, quick on a tiny image, slow enough at 6x to be killed.
      // The other tools on the demo (free previews, unused here).
      INFERENCE_PROVIDER: 'demo',
      ...PAID_TOOL_ENV,
      NSFW_POLICY: 'allow',
    };
    // The first process migrates; the others start together on the migrated database.
    web.push(await startServerProcess({ env, args: ['--web'] }));
    const rest = await Promise.all([
      startServerProcess({ env, args: ['--web'] }),
      startServerProcess({ env, args: ['--worker'] }),
      startServerProcess({ env, args: ['--worker'] }),
    ]);
    web.push(rest[0] as ServerProcess);
    workers.push(rest[1] as ServerProcess, rest[2] as ServerProcess);
    db = new pg.Client({ connectionString: env.DATABASE_URL });
    await db.connect();
  }, 300_000);

  afterAll(async () => {
    await Promise.all([...web, ...workers, ...killed].map((p) => p.stop()));
    for (const p of [...web, ...workers, ...killed]) rmSync(p.dataDir, { recursive: true, force: true });
    await db?.end();
    if (ADMIN_URL) await dropPostgresDatabases(ADMIN_URL, [name]);
    await s3?.stop();
  }, 120_000);

  /** A verified user signed up through `via`; answers a caller that keeps its session cookie. */
  async function user(n: number, via: ServerProcess) {
    const email = `cluster${n}.${Date.now()}@example.com`;
    const ip = `10.77.0.${n}`;
    const response = await fetch(`${via.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: ORIGIN, 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ email, password: 'cluster password 42', name: `c${n}` }),
    });
    expect(response.status).toBe(200);
    const cookie = cookieHeaderFrom(response);
    await db.query('update "user" set email_verified = true where email = $1', [email]);
    const call = (server: ServerProcess, apiPath: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}/api${apiPath}`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json', 'x-forwarded-for': ip, cookie, ...headers },
        body: JSON.stringify(body),
      });
    return { email, call };
  }

  async function ledgerMismatches() {
    const { rows } = await db.query(
      `select p.user_id from profiles p left join ledger l on l.user_id = p.user_id
       group by p.user_id, p.tokens having p.tokens <> coalesce(sum(l.delta), 0)`,
    );
    return rows;
  }

  it('charges concurrent calls through both web processes exactly once, never below zero', async () => {
    const users = await Promise.all([1, 2, 3, 4].map((n) => user(n, web[n % 2] as ServerProcess)));
    // 25 one-token calls each on a balance of 20, alternating between the web processes.
    const answers = await Promise.all(
      users.flatMap((u) =>
        Array.from({ length: 25 }, (_, i) =>
          u.call(web[i % 2] as ServerProcess, PAID_CALL.path.slice('/api'.length), PAID_CALL.body),
        ),
      ),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(80);
    expect(statuses.filter((s) => s === 402)).toHaveLength(20);
    const jobs = await db.query(`select status, count(*)::int as n from jobs group by status`);
    expect(jobs.rows).toEqual([{ status: 'succeeded', n: 80 }]);
    const debits = await db.query(`select count(*)::int as n from ledger where reason = 'job'`);
    expect(debits.rows[0].n).toBe(80);
    const negative = await db.query('select count(*)::int as n from profiles where tokens < 0');
    expect(negative.rows[0].n).toBe(0);
    expect(await ledgerMismatches()).toEqual([]);
  }, 180_000);

  it('counts password guesses across both web processes: the limit holds whichever one answers', async () => {
    const target = await user(20, web[0] as ServerProcess);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const via = web[i % 2] as ServerProcess;
      const answer = await fetch(`${via.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { origin: ORIGIN, 'content-type': 'application/json', 'x-forwarded-for': '10.78.0.1' },
        body: JSON.stringify({ email: target.email, password: `guess ${i} wrong` }),
      });
      statuses.push(answer.status);
    }
    // 10 a minute per address (AUTH_RATE_LIMITS), counted in the shared database, not per process.
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });

  it('runs a job whose workers were killed mid-run again once their leases lapse, then completes or refunds it', async () => {
    const u = await user(9, web[0] as ServerProcess);
    const started = await u.call(
      web[1] as ServerProcess,
      '/upscale-image',
      { image: IMAGE, scale: 6 },
      { prefer: 'wait=0' },
    );
    expect(started.status).toBe(202);
    const { jobId } = (await started.json()) as { jobId: string };
    // Wait until a worker has it, then kill both workers without warning (the caps here and below
    // only catch a hang).
    const statusOf = async () => (await db.query('select status from jobs where id = $1', [jobId])).rows[0]?.status;
    await expect.poll(statusOf, { timeout: 120_000, interval: 50 }).toBe('running');
    await Promise.all(workers.map((w) => w.stop('SIGKILL')));
    expect(await statusOf()).toBe('running');

    killed.push(...workers.splice(0, workers.length, await startServerProcess({ env, args: ['--worker'] })));
    // The dead workers' leases lapse 10 s after their last heartbeat and the new worker claims the job
    // again; the queue's own expiry would bring it back after 15 minutes: followed for 5 at most.
    const restartedAt = Date.now();
    let final = '';
    let attempts = 0;
    let retriedAfter = Number.NaN;
    while (!final && Date.now() - restartedAt < 5 * 60_000) {
      const { rows } = await db.query('select status, attempts from jobs where id = $1', [jobId]);
      if (rows[0]?.status === 'succeeded' || rows[0]?.status === 'failed') final = rows[0].status;
      attempts = rows[0]?.attempts ?? 0;
      if (Number.isNaN(retriedAfter) && attempts > 1) retriedAfter = (Date.now() - restartedAt) / 1000;
      if (!final) await new Promise((r) => setTimeout(r, 200));
    }
    const finishedAfter = (Date.now() - restartedAt) / 1000;
    console.info(
      `job of the killed workers: run again ${retriedAfter.toFixed(1)} s after the new worker was up, ${final} after ${finishedAfter.toFixed(1)} s`,
    );
    expect(attempts).toBeGreaterThan(1); // claimed again by the new worker
    expect(['succeeded', 'failed']).toContain(final);
    const balance = await db.query(
      'select p.tokens from profiles p join "user" u on u.id = p.user_id where u.email = $1',
      [u.email],
    );
    // Charged once if it completed; refunded if it failed.
    expect(balance.rows[0].tokens).toBe(final === 'succeeded' ? 19 : 20);
    const charges = await db.query(
      `select reason, count(*)::int as n from ledger where reference = $1 group by reason`,
      [jobId],
    );
    expect(charges.rows.find((r) => r.reason === 'job')?.n).toBe(1);
    expect(await ledgerMismatches()).toEqual([]);
  }, 600_000);
});
