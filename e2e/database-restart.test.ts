// The database restarts during traffic (PostgreSQL stopped and started again under a running
// server): calls made while it is down fail with a clear message, the server recovers on its
// own, and afterwards every job is final, charged once or refunded, and the ledger is exact.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAID_CALL, PAID_TOOL_ENV } from './support/paid-call';
import { cookieHeaderFrom, freePort, type ServerProcess, startServerProcess } from './support/server';

const ROOT = path.resolve(import.meta.dirname, '..');
const CLUSTER = path.join(ROOT, 'scripts/pg-cluster.sh');
/** `npm run admin`'s script: the admin tool from the server's build. */
const ADMIN = path.join(ROOT, 'scripts/admin.mjs');
const SECRET = 'restart-test-secret-of-at-least-32-characters';
const hasPostgres = (() => {
  try {
    execFileSync('bash', ['-c', 'command -v pg_ctl || ls /usr/lib/postgresql/*/bin/pg_ctl'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe.runIf(hasPostgres)('a database restart during traffic', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-restart-pg-'));
  let port: number;
  let url: string;
  let server: ServerProcess;
  const pgStart = () => execFileSync(CLUSTER, ['start', dir, String(port)], { encoding: 'utf8' }).trim();
  const pgStop = () => execFileSync(CLUSTER, ['stop', dir]);

  beforeAll(async () => {
    port = await freePort();
    url = pgStart();
    server = await startServerProcess({
      env: {
        DATABASE_URL: url,
        BETTER_AUTH_SECRET: SECRET,
        INFERENCE_PROVIDER: 'demo',
        // A paid tool: the test counts debits and refunds (the demo's previews are free).
        ...PAID_TOOL_ENV,
        NSFW_POLICY: 'allow',
        TRUST_PROXY_HOPS: '1',
        QUEUE_POLL_SECONDS: '0.5',
        TOOL_WAIT_SECONDS: '10',
      },
    });
  }, 180_000);

  afterAll(async () => {
    // A crash is the failure this test exists for: show why.
    if (server && server.child.exitCode !== null) console.error(`server exited:\n${server.output().slice(-3000)}`);
    await server?.stop();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
    pgStop();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('fails calls clearly while it is down, recovers by itself, and loses nothing', async () => {
    const origin = server.url;
    const post = (p: string, body: unknown, cookie = '') =>
      fetch(`${server.url}${p}`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', 'x-forwarded-for': '10.55.0.1', cookie },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(30_000),
      });
    const email = `restart.${Date.now()}@example.com`;
    const signUp = await post('/api/auth/sign-up/email', { email, password: 'a password 42', name: 'R' });
    expect(signUp.status).toBe(200);
    const cookie = cookieHeaderFrom(signUp);
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query('update "user" set email_verified = true where email = $1', [email]);
    await admin.end();
    // Enough tokens to keep calling through the outage and after it (support's grant, a ledger row).
    const grant = spawnSync(process.execPath, [ADMIN, 'grant', email, '500'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, BETTER_AUTH_SECRET: SECRET, LOG_LEVEL: 'warn' },
      encoding: 'utf8',
    });
    expect(grant.status, grant.stderr).toBe(0);

    const statuses: number[] = [];
    let running = true;
    const traffic = (async () => {
      while (running) {
        const answer = await post(PAID_CALL.path, PAID_CALL.body, cookie).catch(() => null);
        statuses.push(answer?.status ?? 0);
        if (answer && answer.status !== 200) {
          const body = (await answer.json().catch(() => ({}))) as { error?: string };
          // A failure says what to do, never a stack trace.
          if (answer.status >= 500) expect(body.error).toMatch(/try again/i);
        } else await answer?.arrayBuffer();
        await new Promise((r) => setTimeout(r, 100));
      }
    })();

    // Counted in calls, not seconds: a few served before the stop, one failed while it is down.
    // (The caps of the waits only catch a hang.)
    const failed = (status: number) => status >= 500 || status === 0;
    await expect.poll(() => statuses.filter((status) => status === 200).length, { timeout: 60_000 }).toBeGreaterThan(2);
    pgStop();
    const stoppedAt = statuses.length;
    await expect.poll(async () => (await fetch(`${server.url}/api/health`)).status, { timeout: 60_000 }).toBe(503);
    await expect.poll(() => statuses.slice(stoppedAt).some(failed), { timeout: 60_000 }).toBe(true);
    pgStart();
    // The server recovers by itself: health, then successful calls again.
    await expect
      .poll(async () => (await fetch(`${server.url}/api/health`)).status, { timeout: 60_000, interval: 500 })
      .toBe(200);
    const before = statuses.length;
    await expect.poll(() => statuses.slice(before).includes(200), { timeout: 60_000 }).toBe(true);
    running = false;
    await traffic;
    // The outage was felt: some calls failed while the database was down.
    expect(statuses.slice(stoppedAt, before).some(failed)).toBe(true);
    expect(server.child.exitCode).toBeNull(); // it never crashed

    // At rest: every job final, one debit per job, refunds only for failed ones, ledger exact.
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      for (let i = 0; i < 60; i++) {
        const busy = await db.query(`select count(*)::int as n from jobs where status in ('queued', 'running')`);
        if (busy.rows[0].n === 0) break;
        await new Promise((r) => setTimeout(r, 1000));
      }
      const jobs = await db.query(`select status, count(*)::int as n from jobs group by status order by status`);
      const byStatus = Object.fromEntries(jobs.rows.map((r) => [r.status, r.n]));
      expect(byStatus.queued ?? 0).toBe(0);
      expect(byStatus.running ?? 0).toBe(0);
      const debits = await db.query(`select count(*)::int as n from ledger where reason = 'job'`);
      const refunds = await db.query(`select count(*)::int as n from ledger where reason = 'refund'`);
      expect(debits.rows[0].n).toBe((byStatus.succeeded ?? 0) + (byStatus.failed ?? 0));
      expect(refunds.rows[0].n).toBe(byStatus.failed ?? 0);
      const mismatches = await db.query(
        `select p.user_id from profiles p left join ledger l on l.user_id = p.user_id
         group by p.user_id, p.tokens having p.tokens <> coalesce(sum(l.delta), 0)`,
      );
      expect(mismatches.rows).toEqual([]);
    } finally {
      await db.end();
    }
  }, 180_000);
});
