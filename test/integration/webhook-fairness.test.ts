// Webhook deliveries when one account's receivers never answer (issue 53 item 3): another account's
// webhook is not held up behind them, a host that keeps failing is given up on (its deliveries
// marked failed, as GET /api/jobs/:id shows them), and a host that just failed is not tried again
// until its back-off ends. Each case runs the delivery loop on a database of its own (no other
// worker) with short timeouts; every receiver is on 127.0.0.1.

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import type { AppDb } from '../../src/server/db/client';
import { jobs, user } from '../../src/server/db/schema';
import { insertChargedJob } from '../../src/server/jobs/request/charge';
import { quietLogger } from '../../src/server/log';
import { ensureProfile } from '../../src/server/profiles/profiles';
import { claimNextDelivery, deliveryOf } from '../../src/server/webhooks/deliveries/delivery-repository';
import { HOST_FAILURES_TO_GIVE_UP } from '../../src/server/webhooks/deliveries/host-health';
import {
  ACCOUNT_SHARE,
  startWebhookDeliveries,
  type WebhookDeliveryLoop,
  type WebhookTimeouts,
} from '../../src/server/webhooks/deliveries/webhook-deliveries';
import { createTestDatabase, eventually, type TestDatabase } from '../support/test-backend';

/**
 * A receiver on 127.0.0.1 that records each POST's path and then answers `status` (or the status
 * `status(path)` gives), or, with `status: 'never'`, accepts the request and never answers (a tarpit).
 */
type ReceiverAnswer = number | 'never' | ((path: string) => number);
async function startReceiver(status: ReceiverAnswer) {
  const paths: string[] = [];
  const server = http.createServer((request, response) => {
    paths.push(request.url ?? '/');
    request.resume();
    const answer = typeof status === 'function' ? status(request.url ?? '/') : status;
    if (answer !== 'never') request.on('end', () => response.writeHead(answer).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host: new URL(base).host,
    url: (path: string) => `${base}${path}`,
    paths,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  // Last made, first undone: the loop stops before its database goes.
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  return database;
}

async function receiver(status: ReceiverAnswer) {
  const started = await startReceiver(status);
  cleanups.push(started.close);
  return started;
}

function deliveries(
  db: AppDb,
  { retryBaseSeconds, timeouts }: { retryBaseSeconds: number; timeouts: WebhookTimeouts },
): WebhookDeliveryLoop {
  const loop = startWebhookDeliveries(
    { db, logger: quietLogger(), timeouts },
    { pollingIntervalSeconds: 0.05, retryBaseSeconds, production: false },
  );
  cleanups.push(loop.stop);
  return loop;
}

async function account(db: AppDb): Promise<string> {
  const userId = `u-${randomUUID()}`;
  await db.insert(user).values({ id: userId, name: 'Hook', email: `${userId}@example.com`, emailVerified: true });
  await ensureProfile(db, userId);
  return userId;
}

/** A job of `userId` whose call carried `webhookUrl`, charged and already succeeded: its delivery is due. */
async function endedJobWithWebhook(db: AppDb, userId: string, webhookUrl: string): Promise<string> {
  const { job } = await insertChargedJob(
    db,
    {
      id: randomUUID(),
      userId,
      tool: 'text-to-pic',
      cost: 1,
      charged: 1,
      input: { prompt: 'a kite', numOutputs: 1 },
      provider: 'local',
      idempotencyKey: null,
      requestHash: randomUUID(),
      webhookUrl,
    },
    [],
    100,
  );
  await db.update(jobs).set({ status: 'succeeded', finishedAt: new Date() }).where(eq(jobs.id, job.id));
  return job.id;
}

/** The job's webhook as GET /api/jobs/:id shows it. */
const shown = async (db: AppDb, jobId: string) => deliveryOf(db, jobId, '');

describe('one account whose receivers never answer', () => {
  it('holds no more than its share of the tries: another account’s webhook arrives while its own are still pending', async () => {
    const { db } = await freshDatabase();
    const tarpit = await receiver('never');
    const good = await receiver(200);
    const greedy = await account(db);
    const other = await account(db);
    // Eight due before the other account's one (claims go by due time).
    const greedyJobs: string[] = [];
    for (let i = 0; i < 8; i++) greedyJobs.push(await endedJobWithWebhook(db, greedy, tarpit.url(`/slow-${i}`)));
    await endedJobWithWebhook(db, other, good.url('/on-time'));

    deliveries(db, { retryBaseSeconds: 30, timeouts: { connectMs: 1000, tryMs: 2000 } });
    await eventually(async () => good.paths.includes('/on-time'));
    // At that moment at most the greedy account's share of its deliveries had been tried, and none ended.
    expect(tarpit.paths.length).toBeLessThanOrEqual(ACCOUNT_SHARE);
    for (const jobId of greedyJobs) expect((await shown(db, jobId))?.status).toBe('pending');
  });

  it('the claim skips an account at its share and takes another account’s due delivery', async () => {
    const { db } = await freshDatabase();
    const greedy = await account(db);
    const other = await account(db);
    for (let i = 0; i < 3; i++) await endedJobWithWebhook(db, greedy, `http://127.0.0.1:9/slow-${i}`);
    const otherJob = await endedJobWithWebhook(db, other, 'http://127.0.0.1:9/on-time');
    expect(await claimNextDelivery(db, { skipAccounts: [greedy] })).toEqual({
      jobId: otherJob,
      attempt: 1,
      userId: other,
    });
    expect(await claimNextDelivery(db, { skipAccounts: [greedy, other] })).toBeNull();
    expect((await claimNextDelivery(db))?.userId).toBe(greedy);
  });
});

describe('a receiver host that keeps failing', () => {
  it('is given up on after a few tries in a row: every delivery to it is marked failed, most untried', async () => {
    const { db } = await freshDatabase();
    const tarpit = await receiver('never');
    const userId = await account(db);
    const jobIds: string[] = [];
    for (let i = 0; i < 8; i++) jobIds.push(await endedJobWithWebhook(db, userId, tarpit.url(`/hook-${i}`)));

    deliveries(db, { retryBaseSeconds: 0.02, timeouts: { connectMs: 300, tryMs: 300 } });
    const given = await eventually(async () => {
      const all = await Promise.all(jobIds.map((jobId) => shown(db, jobId)));
      return all.every((delivery) => delivery?.status === 'failed') && all;
    });
    for (const delivery of given) {
      expect(delivery?.lastError).toMatch(new RegExp(`^Given up: ${tarpit.host} failed \\d+ tries in a row`));
    }
    // A handful of tries in all (the host's in a row, and one more in hand), not ten a delivery.
    const tries = given.reduce((sum, delivery) => sum + (delivery?.attempts ?? 0), 0);
    expect(tarpit.paths.length).toBeLessThanOrEqual(tries);
    expect(tries).toBeGreaterThanOrEqual(HOST_FAILURES_TO_GIVE_UP);
    expect(tries).toBeLessThanOrEqual(HOST_FAILURES_TO_GIVE_UP + ACCOUNT_SHARE - 1);
  });

  it('is given up on for the account whose deliveries fail there, not for another account on the same host', async () => {
    const { db } = await freshDatabase();
    // One host, as a relay service is: one account's path fails, another's answers.
    const shared = await receiver((path) => (path.startsWith('/broken') ? 500 : 204));
    const failing = await account(db);
    const jobIds: string[] = [];
    for (let i = 0; i < 8; i++) jobIds.push(await endedJobWithWebhook(db, failing, shared.url(`/broken-${i}`)));
    deliveries(db, { retryBaseSeconds: 0.02, timeouts: { connectMs: 300, tryMs: 300 } });
    await eventually(async () => {
      const all = await Promise.all(jobIds.map((jobId) => shown(db, jobId)));
      return all.every((delivery) => delivery?.status === 'failed');
    });
    const other = await endedJobWithWebhook(db, await account(db), shared.url('/fine'));
    const delivered = await eventually(async () => {
      const delivery = await shown(db, other);
      return delivery?.status !== 'pending' && delivery;
    });
    expect(delivered?.status).toBe('delivered');
    expect(shared.paths).toContain('/fine');
  });

  it('is not tried again until its back-off ends: a delivery to it waits untried while another host’s is delivered', async () => {
    const { db } = await freshDatabase();
    const failing = await receiver(500);
    const good = await receiver(200);
    const userId = await account(db);
    const otherUser = await account(db);
    // A back-off of a minute after the host's first failure: longer than this test.
    deliveries(db, { retryBaseSeconds: 60, timeouts: { connectMs: 1000, tryMs: 1000 } });
    const first = await endedJobWithWebhook(db, userId, failing.url('/first'));
    await eventually(async () => (await shown(db, first))?.lastStatus === 500);

    const second = await endedJobWithWebhook(db, userId, failing.url('/second'));
    const onTime = await endedJobWithWebhook(db, otherUser, good.url('/on-time'));
    // The second is due before the other host's, yet waits for its host's back-off.
    await eventually(
      async () => (await shown(db, onTime))?.status === 'delivered' && (await shown(db, second))?.attempts === 0,
    );
    expect(failing.paths).toEqual(['/first']);
    expect(await shown(db, second)).toEqual({ url: '', status: 'pending', attempts: 0 });
  });
});
