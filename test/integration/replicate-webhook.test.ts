// Replicate's webhook mode against the fake Replicate: a tool call answers 202 once the prediction is
// created, and the signed webhook (posted by the test: the fake cannot reach the in-process app)
// finishes the job. Bad signatures, replays and unknown predictions change nothing; the backstop
// finishes a job whose webhook never came.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JobView } from '../../src/contract/tool-responses';
import { toolById } from '../../src/contract/tools';
import { files, jobs, ledger, webhookEvents } from '../../src/server/db/schema';
import { checkPendingJobs } from '../../src/server/jobs/worker/pending-jobs';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { quietLogger } from '../../src/server/log';
import { type FakeReplicate, routerOnFake, signWebhook, startFakeReplicate } from '../support/fake-replicate';
import type { TestClient } from '../support/http-client';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { tokensOf, verifiedUser } from '../support/tool-fixtures';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const APP_URL = 'http://localhost:3000';
const WEBHOOK_URL = `${APP_URL}/api/webhooks/replicate`;
const generate = { prompt: 'a glass teapot', numOutputs: 2 };

describe('Replicate webhook mode', () => {
  let fake: FakeReplicate;
  let backend: TestBackend;
  beforeAll(async () => {
    fake = await startFakeReplicate();
    backend = await createTestBackend({
      env: {
        APP_URL,
        TOOL_WAIT_SECONDS: '0',
        REPLICATE_API_TOKEN: fake.token,
        INFERENCE_PROVIDER: 'replicate',
        REPLICATE_WEBHOOK_SECRET: SECRET,
      },
      inference: routerOnFake(fake, { webhook: { url: WEBHOOK_URL } }),
    });
  });
  afterAll(async () => {
    await backend?.stop();
    await fake?.stop();
  });
  afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

  const jobRow = async (id: string) => (await backend.database.db.select().from(jobs).where(eq(jobs.id, id)))[0];
  const deliver = (body: string, headers: Record<string, string>) =>
    backend.app.request('/api/webhooks/replicate', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body,
    });
  const backstopDeps = () => ({
    db: backend.database.db,
    storage: backend.storage,
    logger: quietLogger(),
    providerFor: backend.inference.providerFor,
  });

  /** A tool call that answers 202 and a job now waiting at Replicate for its prediction. */
  async function pendingJob(client: TestClient) {
    const response = await client.post<{ pending: boolean; jobId: string }>('/api/generate-image', generate);
    expect(response.status).toBe(202);
    expect(response.body.pending).toBe(true);
    const { jobId } = response.body;
    const ref = await eventually(async () => (await jobRow(jobId))?.providerRef);
    expect((await jobRow(jobId))?.status).toBe('running');
    return { jobId, ref };
  }

  it('answers 202, then the signed webhook stores the outputs and the job succeeds, charged once', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const { jobId, ref } = await pendingJob(client);
    const create = fake.requests.find((r) => r.method === 'POST' && r.path.includes('flux-schnell'));
    expect(create?.body).toMatchObject({ webhook: WEBHOOK_URL, webhook_events_filter: ['completed'] });
    expect(create?.prefer).toBeUndefined();

    const delivery = await fake.webhookDelivery(ref);
    expect(delivery).toMatchObject({ url: WEBHOOK_URL, events: ['completed'] });
    const response = await deliver(delivery.body, signWebhook(SECRET, delivery.body));
    expect(response.status).toBe(200);

    const job = (await client.get<JobView>(`/api/jobs/${jobId}`)).body;
    expect(job.status).toBe('succeeded');
    expect(job.output).toHaveLength(2);
    for (const url of job.output ?? []) {
      expect(url.startsWith('/api/files/')).toBe(true);
      expect((await client.fetchRaw(url)).headers.get('content-type')).toBe('image/webp');
    }
    const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    expect(rows.map((r) => `${r.reason} ${r.delta}`).sort()).toEqual(['job -2', 'signup 20']);
    expect(await tokensOf(client)).toBe(18);
  });

  it('fails and refunds the job when the prediction failed', async () => {
    fake.setNextScenario('fail');
    const { client } = await verifiedUser(backend, 20);
    const { jobId, ref } = await pendingJob(client);
    expect(await tokensOf(client)).toBe(18);
    const { body } = await fake.webhookDelivery(ref);
    expect((await deliver(body, signWebhook(SECRET, body))).status).toBe(200);
    const job = (await client.get<JobView>(`/api/jobs/${jobId}`)).body;
    expect(job).toMatchObject({ status: 'failed', error: toolById('text-to-pic').failureMessage });
    expect(await tokensOf(client)).toBe(20);
  });

  it('handles a delivery once: the same webhook-id again changes nothing', async () => {
    const { client } = await verifiedUser(backend, 20);
    const { jobId, ref } = await pendingJob(client);
    const { body } = await fake.webhookDelivery(ref);
    const headers = signWebhook(SECRET, body);
    expect((await deliver(body, headers)).status).toBe(200);
    const done = await jobRow(jobId);

    const again = await deliver(body, headers);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ duplicate: true });
    // Even a different (validly signed) body under that id is not looked at.
    const failed = body.replace('"succeeded"', '"failed"');
    const replay = await deliver(failed, signWebhook(SECRET, failed, { id: headers['webhook-id'] }));
    expect(await replay.json()).toMatchObject({ duplicate: true });

    expect(await jobRow(jobId)).toEqual(done);
    expect(await tokensOf(client)).toBe(18);
    const events = await backend.database.db
      .select()
      .from(webhookEvents)
      .where(eq(webhookEvents.eventId, headers['webhook-id'] ?? ''));
    expect(events).toHaveLength(1);
  });

  it('refuses a forged signature, a tampered body and a stale timestamp with 401, changing nothing', async () => {
    const { client } = await verifiedUser(backend, 20);
    const { jobId, ref } = await pendingJob(client);
    const { body } = await fake.webhookDelivery(ref);
    const other = `whsec_${randomBytes(32).toString('base64')}`;
    const sixMinutesAgo = Math.floor(Date.now() / 1000) - 6 * 60;
    const attempts: Array<[string, Record<string, string>]> = [
      [body, signWebhook(other, body)],
      [body.replace('"succeeded"', '"failed"'), signWebhook(SECRET, body)],
      [body, signWebhook(SECRET, body, { timestamp: sixMinutesAgo })],
      [body, {}],
    ];
    for (const [sent, headers] of attempts) {
      expect((await deliver(sent, headers)).status).toBe(401);
    }
    expect(await backend.database.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, ''))).toEqual([]);
    for (const [, headers] of attempts.slice(0, 3)) {
      const id = headers['webhook-id'] ?? '';
      expect(await backend.database.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, id))).toEqual([]);
    }
    expect((await jobRow(jobId))?.status).toBe('running');
    expect(await tokensOf(client)).toBe(18);

    // The genuine delivery still goes through.
    expect((await deliver(body, signWebhook(SECRET, body))).status).toBe(200);
    expect((await jobRow(jobId))?.status).toBe('succeeded');
  });

  it('ignores a webhook for a prediction that is not ours', async () => {
    const body = JSON.stringify({ id: 'notourprediction0000000000', status: 'succeeded', output: [] });
    const response = await deliver(body, signWebhook(SECRET, body));
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ignored: 'unknown prediction' });
  });

  it('refuses a body over 1 MB and reports webhook mode in health', async () => {
    const huge = JSON.stringify({ id: 'x', padding: 'x'.repeat(1024 * 1024) });
    expect((await deliver(huge, signWebhook(SECRET, huge))).status).toBe(413);
    const health = await (await backend.app.request('/api/health')).json();
    expect(health.providers.inference).toMatchObject({ provider: 'replicate', mode: 'webhook' });
  });

  it('the backstop completes a job whose webhook never came, and gives up on one that never finishes', async () => {
    const { client } = await verifiedUser(backend, 20);
    const lost = await pendingJob(client);
    await fake.webhookDelivery(lost.ref); // finished at Replicate; the webhook is never delivered

    fake.setNextScenario({ slow: 60_000 });
    const stuck = await pendingJob(client);
    expect(await tokensOf(client)).toBe(16);

    // Not yet past the grace period: nothing is touched.
    expect(await checkPendingJobs(backstopDeps(), { graceSeconds: 600, expireSeconds: 900 })).toBe(0);
    expect(await checkPendingJobs(backstopDeps(), { graceSeconds: 0, expireSeconds: 900 })).toBe(1);
    const done = (await client.get<JobView>(`/api/jobs/${lost.jobId}`)).body;
    expect(done.status).toBe('succeeded');
    expect(done.output).toHaveLength(2);
    expect((await jobRow(stuck.jobId))?.status).toBe('running');

    // Past the time limit: canceled at Replicate, failed and refunded here.
    expect(await checkPendingJobs(backstopDeps(), { graceSeconds: 0, expireSeconds: 0 })).toBe(1);
    expect((await jobRow(stuck.jobId))?.status).toBe('failed');
    expect(fake.prediction(stuck.ref)?.status).toBe('canceled');
    expect(await tokensOf(client)).toBe(18);
  });

  it('takes deliveries out of order and late: only a job still running is finished, once', async () => {
    const { client } = await verifiedUser(backend, 20);
    const outputsOf = async (jobId: string) =>
      (await backend.database.db.select().from(files).where(eq(files.jobId, jobId))).filter((f) => f.kind === 'output');
    const signedDelivery = async (body: string) => deliver(body, signWebhook(SECRET, body));
    const inProgress = (ref: string) => JSON.stringify({ id: ref, status: 'processing', output: null });

    // A progress event before and after the completion: ignored both times.
    const reordered = await pendingJob(client);
    const early = await signedDelivery(inProgress(reordered.ref));
    expect(await early.json()).toMatchObject({ ignored: 'not finished' });
    expect((await jobRow(reordered.jobId))?.status).toBe('running');
    const { body: completed } = await fake.webhookDelivery(reordered.ref);
    expect((await signedDelivery(completed)).status).toBe(200);
    const finished = await jobRow(reordered.jobId);
    expect(finished?.status).toBe('succeeded');
    expect(await (await signedDelivery(inProgress(reordered.ref))).json()).toMatchObject({ ignored: 'not finished' });
    // A contradicting completion under a new delivery id comes too late as well.
    const contradiction = completed.replace('"succeeded"', '"failed"');
    expect((await signedDelivery(contradiction)).status).toBe(200);
    expect(await jobRow(reordered.jobId)).toEqual(finished);

    // Delayed past the grace period: the backstop finished the job; the webhook then changes nothing.
    const delayed = await pendingJob(client);
    const { body: lateBody } = await fake.webhookDelivery(delayed.ref);
    expect(await checkPendingJobs(backstopDeps(), { graceSeconds: 0, expireSeconds: 900 })).toBe(1);
    const byBackstop = await jobRow(delayed.jobId);
    expect(byBackstop?.status).toBe('succeeded');
    expect(await outputsOf(delayed.jobId)).toHaveLength(2);
    expect((await signedDelivery(lateBody)).status).toBe(200);
    expect(await jobRow(delayed.jobId)).toEqual(byBackstop);
    expect(await outputsOf(delayed.jobId)).toHaveLength(2);
    expect(await tokensOf(client)).toBe(16);

    // Delayed past the time limit: given up and refunded; a success arriving afterwards is not charged again.
    fake.setNextScenario({ slow: 60_000 });
    const abandoned = await pendingJob(client);
    expect(await tokensOf(client)).toBe(14);
    expect(await checkPendingJobs(backstopDeps(), { graceSeconds: 0, expireSeconds: 0 })).toBe(1);
    const refunded = await jobRow(abandoned.jobId);
    expect(refunded?.status).toBe('failed');
    expect(await tokensOf(client)).toBe(16);
    const afterTheEnd = lateBody.replaceAll(delayed.ref, abandoned.ref);
    expect((await signedDelivery(afterTheEnd)).status).toBe(200);
    expect(await jobRow(abandoned.jobId)).toEqual(refunded);
    expect(await outputsOf(abandoned.jobId)).toEqual([]);
    expect(await tokensOf(client)).toBe(16);
    const job = (await client.get<JobView>(`/api/jobs/${abandoned.jobId}`)).body;
    expect(job).toMatchObject({ status: 'failed', error: toolById('text-to-pic').failureMessage });
  });
});
