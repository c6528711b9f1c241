// Webhooks of tool calls (issue 39) as a developer meets them: a call carrying `webhook` gets the
// ended job POSTed to a receiver on 127.0.0.1, signed so that the standardwebhooks package verifies
// it with the secret of GET /api/webhook-secret; retried with the same webhook-id after a failure;
// not verifiable with a secret rotated away; a bad URL refused with nothing charged; production's
// rule at the call; a delivery due across a restart delivered once.

import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobDetail } from '../../src/contract/tool-responses';
import { toolById } from '../../src/contract/tools';
import { WEBHOOK_EVENT, WEBHOOK_MESSAGES, type WebhookEvent } from '../../src/contract/webhooks';
import { deleteAccount } from '../../src/server/accounts/account-deletion';
import { jobs, ledger, user, webhookDeliveries, webhookSecrets } from '../../src/server/db/schema';
import type { InferenceProvider } from '../../src/server/inference/provider';
import { insertChargedJob } from '../../src/server/jobs/request/charge';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { quietLogger } from '../../src/server/log';
import { ensureProfile } from '../../src/server/profiles/profiles';
import { startBackend } from '../../src/server/system';
import {
  claimNextDelivery,
  deliveryOf,
  recordTry,
  WEBHOOK_TRIES,
} from '../../src/server/webhooks/deliveries/delivery-repository';
import { webhookSecretOf } from '../../src/server/webhooks/signing-secrets';
import type { TestClient } from '../support/http-client';
import {
  createTestBackend,
  createTestDatabase,
  eventually,
  NEUTRAL_CLASSIFIER,
  type TestBackend,
  testConfig,
} from '../support/test-backend';
import { productionWebhookCall } from '../support/tool-call-deps';
import { instantProvider, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const TEXT_TO_PIC = toolById('text-to-pic');
const CALL_PATH = `/api${TEXT_TO_PIC.apiPath}`;
/** A prompt the provider below fails on (not retryable: the job fails and is refunded at once). */
const FAILING_PROMPT = 'please FAIL this one';

/** A paid provider (so money moves) that fails on FAILING_PROMPT. */
function failOnPrompt(): InferenceProvider {
  const ok = instantProvider();
  const failing = instantProvider({ fail: true });
  return {
    ...ok,
    run: (input, signal) =>
      'prompt' in input && input.prompt === FAILING_PROMPT ? failing.run(input, signal) : ok.run(input, signal),
  };
}

type Receipt = { path: string; headers: Record<string, string>; body: string };

/** A webhook receiver on 127.0.0.1: records every POST; a path's answers are given in turn (then 200). */
async function startReceiver() {
  const receipts: Receipt[] = [];
  const answers = new Map<string, number[]>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      receipts.push({
        path,
        headers: request.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(answers.get(path)?.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path: string) => `${base}${path}`,
    answer: (path: string, ...statuses: number[]) => answers.set(path, statuses),
    at: (path: string) => receipts.filter((r) => r.path === path),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const secretOf = async (client: TestClient) =>
  (await client.get<{ secret: string }>('/api/webhook-secret')).body.secret;

const verified = (secret: string, receipt: Receipt) =>
  WEBHOOK_EVENT.parse(new Webhook(secret).verify(receipt.body, receipt.headers)) satisfies WebhookEvent;

let backend: TestBackend;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver();
  backend = await createTestBackend({
    inference: routerWith(failOnPrompt()),
    env: { WEBHOOK_RETRY_BASE_SECONDS: '0.2', QUEUE_POLL_SECONDS: '0.5' },
  });
});
afterAll(async () => {
  await backend.stop();
  await receiver.close();
});

const jobOf = (client: TestClient, id: string) => client.get<JobDetail>(`/api/jobs/${id}`);

describe('a tool call with a webhook', () => {
  it('POSTs the succeeded job, signed with the account’s secret, and shows the delivery on the job', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const called = await client.post<{ jobId: string; success: boolean }>(CALL_PATH, {
      prompt: 'a lighthouse at dusk',
      webhook: receiver.url('/succeeded'),
      userId: id,
    });
    expect(called.status).toBe(200);
    const jobId = called.body.jobId;
    const [receipt] = await eventually(async () => receiver.at('/succeeded').length === 1 && receiver.at('/succeeded'));
    if (!receipt) throw new Error('no delivery');
    expect(receipt.headers['content-type']).toBe('application/json');
    expect(receipt.headers['webhook-id']).toBe(`job_${jobId}_succeeded`);
    expect(receipt.headers['webhook-signature']).toMatch(/^v1,/);
    expect(Number(receipt.headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);

    const secret = await secretOf(client);
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(await secretOf(client)).toBe(secret);
    const event = verified(secret, receipt);
    const shown = await eventually(async () => {
      const job = (await jobOf(client, jobId)).body;
      return job.webhook?.status === 'delivered' && job;
    });
    const { webhook, ...view } = shown;
    expect(event).toEqual({ type: 'job.succeeded', timestamp: shown.finishedAt, data: view });
    expect(event.data).toMatchObject({ id: jobId, status: 'succeeded', charged: 1, output: [expect.any(String)] });
    expect(webhook).toEqual({
      url: receiver.url('/succeeded'),
      status: 'delivered',
      attempts: 1,
      lastStatus: 200,
      deliveredAt: expect.any(String),
    });
  });

  it('POSTs a failed job once its cost is refunded', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const called = await client.post<{ jobId: string; success: boolean; refunded: boolean }>(CALL_PATH, {
      prompt: FAILING_PROMPT,
      webhook: receiver.url('/failed'),
      userId: id,
    });
    expect(called.status).toBe(502);
    expect(called.body.refunded).toBe(true);
    const [receipt] = await eventually(async () => receiver.at('/failed').length === 1 && receiver.at('/failed'));
    if (!receipt) throw new Error('no delivery');
    expect(receipt.headers['webhook-id']).toBe(`job_${called.body.jobId}_failed`);
    const event = verified(await secretOf(client), receipt);
    expect(event.type).toBe('job.failed');
    expect(event.data).toMatchObject({ id: called.body.jobId, status: 'failed', error: expect.any(String) });
    expect(await tokensOf(client)).toBe(20);
    expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
  });

  it('a job without a webhook shows none and sends nothing', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const called = await client.post<{ jobId: string }>(CALL_PATH, { prompt: 'no hook', userId: id });
    expect(called.status).toBe(200);
    const job = (await jobOf(client, called.body.jobId)).body;
    expect(job.status).toBe('succeeded');
    expect('webhook' in job).toBe(false);
  });

  it('retries a receiver that answered 500 with the same webhook-id, and shows 2 attempts', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    receiver.answer('/flaky', 500);
    const called = await client.post<{ jobId: string }>(CALL_PATH, {
      prompt: 'a kite',
      webhook: receiver.url('/flaky'),
      userId: id,
    });
    const jobId = called.body.jobId;
    const failedOnce = await eventually(async () => {
      const job = (await jobOf(client, jobId)).body;
      return job.webhook?.attempts === 1 && job.webhook.lastStatus === 500 && job;
    });
    expect(failedOnce.webhook).toMatchObject({ status: 'pending', lastError: 'The receiver answered HTTP 500.' });
    const shown = await eventually(async () => {
      const job = (await jobOf(client, jobId)).body;
      return job.webhook?.status === 'delivered' && job;
    });
    expect(shown.webhook).toEqual({
      url: receiver.url('/flaky'),
      status: 'delivered',
      attempts: 2,
      lastStatus: 200,
      deliveredAt: expect.any(String),
    });
    const receipts = receiver.at('/flaky');
    expect(receipts.map((r) => r.headers['webhook-id'])).toEqual([`job_${jobId}_succeeded`, `job_${jobId}_succeeded`]);
    expect(receipts[0]?.body).toBe(receipts[1]?.body);
    const secret = await secretOf(client);
    for (const receipt of receipts) expect(verified(secret, receipt).data.id).toBe(jobId);
  });

  it('signs with the new secret after a rotation: the old one verifies nothing more', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const old = await secretOf(client);
    const rotated = await client.post<{ secret: string }>('/api/webhook-secret/rotate', {});
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    expect(rotated.body.secret).not.toBe(old);
    expect(await secretOf(client)).toBe(rotated.body.secret);

    await client.post(CALL_PATH, { prompt: 'after rotation', webhook: receiver.url('/rotated'), userId: id });
    const [receipt] = await eventually(async () => receiver.at('/rotated').length === 1 && receiver.at('/rotated'));
    if (!receipt) throw new Error('no delivery');
    expect(verified(rotated.body.secret, receipt).type).toBe('job.succeeded');
    expect(() => new Webhook(old).verify(receipt.body, receipt.headers)).toThrow();
  });

  it('goes with the account, and its deliveries with its jobs', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    await secretOf(client);
    receiver.answer('/deleted', 500, 500, 500);
    const called = await client.post<{ jobId: string }>(CALL_PATH, {
      prompt: 'soon deleted',
      webhook: receiver.url('/deleted'),
      userId: id,
    });
    await eventually(async () => receiver.at('/deleted').length >= 1);
    await deleteAccount(backend.database.db, backend.storage, id);
    expect(await backend.database.db.select().from(webhookSecrets).where(eq(webhookSecrets.userId, id))).toEqual([]);
    expect(
      await backend.database.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobId, called.body.jobId)),
    ).toEqual([]);
  });

  it('the secret needs a session', async () => {
    const { client } = await verifiedUser(backend, 20);
    await client.post('/api/auth/sign-out', {});
    expect((await client.get('/api/webhook-secret')).status).toBe(401);
    expect((await client.post('/api/webhook-secret/rotate', {})).status).toBe(401);
  });

  it('refuses an invalid webhook URL with 400 in a sentence, charging nothing', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const ledgerBefore = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    const cases: Array<[unknown, string]> = [
      ['/relative/hook', WEBHOOK_MESSAGES.invalid],
      ['hook', WEBHOOK_MESSAGES.invalid],
      ['ftp://example.com/hook', WEBHOOK_MESSAGES.scheme],
      ['https://user:secret@example.com/hook', WEBHOOK_MESSAGES.credentials],
      [`https://example.com/${'a'.repeat(2001)}`, WEBHOOK_MESSAGES.tooLong],
      [42, WEBHOOK_MESSAGES.notText],
    ];
    for (const [webhook, message] of cases) {
      const answer = await client.post<{ error: string }>(CALL_PATH, { prompt: 'a fox', webhook, userId: id });
      expect(answer.status, String(webhook)).toBe(400);
      expect(answer.body.error).toBe(message);
    }
    expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toEqual([]);
    expect(await backend.database.db.select().from(ledger).where(eq(ledger.userId, id))).toEqual(ledgerBefore);
    expect(await tokensOf(client)).toBe(20);
  });

  it('in production, refuses http and local or private hosts at the call, charging nothing', async () => {
    const { id } = await verifiedUser(backend, 20);
    const call = productionWebhookCall(backend, id);
    expect(await call(receiver.url('/prod'))).toEqual({
      kind: 'refused',
      status: 400,
      error: WEBHOOK_MESSAGES.httpsOnly,
    });
    for (const host of ['127.0.0.1', '10.0.0.8', '192.168.1.1', '169.254.169.254', '[::1]', '[fd00::5]', 'localhost']) {
      expect(await call(`https://${host}/hook`), host).toEqual({
        kind: 'refused',
        status: 400,
        error: WEBHOOK_MESSAGES.privateHost(host),
      });
    }
    expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toEqual([]);
    // An https host that is not local is taken in production (.invalid: never resolved, nothing is sent).
    const taken = await call('https://hooks.picture-palette.invalid/hook');
    expect(taken).toMatchObject({ kind: 'job', isNew: true });
  });
});

describe('a delivery due when its server stops', () => {
  it('is delivered once by the next server on the same database', async () => {
    const database = await createTestDatabase();
    // A retry an hour away: the first server cannot make it before it stops, whatever its speed.
    const config = testConfig({ WEBHOOK_RETRY_BASE_SECONDS: '3600', QUEUE_POLL_SECONDS: '0.5' });
    const start = () =>
      startBackend(config, quietLogger(), database, {
        inference: routerWith(failOnPrompt()),
        nsfwClassifier: NEUTRAL_CLASSIFIER,
      });
    const first = await start();
    let second: Awaited<ReturnType<typeof start>> | null = null;
    try {
      if (!first.app) throw new Error('no web role');
      const asTestBackend = { ...first, app: first.app, config, database } as TestBackend;
      const { client, id } = await verifiedUser(asTestBackend, 20);
      receiver.answer('/restart', 503);
      const called = await client.post<{ jobId: string }>(CALL_PATH, {
        prompt: 'across a restart',
        webhook: receiver.url('/restart'),
        userId: id,
      });
      expect(called.status).toBe(200);
      const delivery = async () => deliveryOf(database.db, called.body.jobId, receiver.url('/restart'));
      // The first try failed and was recorded: due again later, when this server is gone.
      await eventually(async () => (await delivery())?.lastStatus === 503);
      await first.stop();
      // The hour passes while no server runs: the retry is due when the next one starts.
      await database.db
        .update(webhookDeliveries)
        .set({ nextAttemptAt: sql`now() - interval '1 second'` })
        .where(eq(webhookDeliveries.jobId, called.body.jobId));
      expect(receiver.at('/restart')).toHaveLength(1);

      second = await start();
      await eventually(async () => receiver.at('/restart').length === 2);
      const [row] = await database.db.select().from(jobs).where(eq(jobs.id, called.body.jobId));
      expect(row?.webhookUrl).toBe(receiver.url('/restart'));
      await eventually(async () => (await delivery())?.status === 'delivered');
      expect(await delivery()).toMatchObject({ status: 'delivered', attempts: 2, lastStatus: 200 });
      // Delivered: never sent again. A later call's delivery comes after any second send would have.
      if (!second.app) throw new Error('no web role');
      const next = await verifiedUser({ ...second, app: second.app, config, database } as TestBackend, 20);
      const later = await next.client.post<{ jobId: string }>(CALL_PATH, {
        prompt: 'after the restart',
        webhook: receiver.url('/after-restart'),
        userId: next.id,
      });
      expect(later.status).toBe(200);
      await eventually(async () => receiver.at('/after-restart').length === 1);
      const receipts = receiver.at('/restart');
      expect(receipts).toHaveLength(2);
      expect(new Set(receipts.map((r) => r.headers['webhook-id']))).toEqual(
        new Set([`job_${called.body.jobId}_succeeded`]),
      );
    } finally {
      await second?.stop();
      await database.drop();
    }
  });
});

describe('the delivery queue', () => {
  it('makes one secret per account, gives a due delivery to one claimer at a time, only once its job has ended, and stops after the last try', async () => {
    // A database with no worker of its own: the claims below are the only ones.
    const database = await createTestDatabase();
    try {
      const { db } = database;
      const userId = `u-${randomUUID()}`;
      await db.insert(user).values({ id: userId, name: 'Hook', email: `${userId}@example.com`, emailVerified: true });
      await ensureProfile(db, userId);
      // First uses at once (a page's read, deliveries) agree on one secret.
      const secrets = await Promise.all(Array.from({ length: 5 }, () => webhookSecretOf(db, userId)));
      expect(new Set(secrets).size).toBe(1);
      const charge = (webhookUrl: string | null) =>
        insertChargedJob(
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
          10,
        );
      const { job } = await charge('http://127.0.0.1:9/hook');
      await charge(null);
      expect(await db.select().from(webhookDeliveries)).toHaveLength(1);
      // Queued: not due yet.
      expect(await claimNextDelivery(db)).toBeNull();
      await db.update(jobs).set({ status: 'succeeded', finishedAt: new Date() }).where(eq(jobs.id, job.id));

      const claims = await Promise.all([claimNextDelivery(db), claimNextDelivery(db), claimNextDelivery(db)]);
      expect(claims.filter(Boolean)).toEqual([{ jobId: job.id, attempt: 1, userId }]);
      // Held by its claim until the try is recorded (or the claim lapses).
      expect(await claimNextDelivery(db)).toBeNull();

      // Every try fails: due again at once (a base of 0), until the last, then failed.
      const failure = { delivered: false as const, error: 'No answer within 10 s.' };
      for (let attempt = 1; attempt <= WEBHOOK_TRIES; attempt++) {
        const claim = attempt === 1 ? { jobId: job.id, attempt, userId } : await claimNextDelivery(db);
        expect(claim).toEqual({ jobId: job.id, attempt, userId });
        if (!claim) break;
        const left = await recordTry(db, claim, failure, 0);
        expect(left).toBe(attempt === WEBHOOK_TRIES ? 'failed' : 'pending');
        // A stale claim records nothing.
        expect(
          await recordTry(db, { jobId: job.id, attempt: attempt - 1, userId }, { delivered: true, status: 200 }, 0),
        ).toBeNull();
      }
      expect(await claimNextDelivery(db)).toBeNull();
      expect(await deliveryOf(db, job.id, 'http://127.0.0.1:9/hook')).toEqual({
        url: 'http://127.0.0.1:9/hook',
        status: 'failed',
        attempts: WEBHOOK_TRIES,
        lastError: 'No answer within 10 s.',
      });
    } finally {
      await database.drop();
    }
  });
});
