// GET /metrics (what this process has done, for Prometheus) and X-Request-Id (a reference for every
// request, in its answer and its log lines): issue 57 items 3 and 4, decision 079.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PACKAGES } from '../../src/contract/packages';
import { toolById } from '../../src/contract/tools';
import { jobs, ledger, payments, profiles, user } from '../../src/server/db/schema';
import { HTTP_ERROR_MESSAGES, listen } from '../../src/server/http-server';
import type { InferenceProvider } from '../../src/server/inference/provider';
import { quietLogger } from '../../src/server/log';
import { createFsStorage } from '../../src/server/storage/fs-storage';
import { type RunningSystem, startSystem } from '../../src/server/system';
import { TestClient } from '../support/http-client';
import { createTestBackend, recordingLogger, type TestBackend, testConfig } from '../support/test-backend';
import {
  chargeTextToPicJob,
  dataUrl,
  instantProvider,
  pngBytes,
  routerWith,
  tokensOf,
  verifiedUser,
} from '../support/tool-fixtures';

const UPSCALER = `/api${toolById('image-upscaler').apiPath}`;
const COLORIZER = `/api${toolById('colorizer').apiPath}`;

/** Answers every tool at once, but the Colorizer, whose runs fail (and are refunded). */
function colorizerFails(): InferenceProvider {
  const instant = instantProvider();
  return {
    ...instant,
    async run(input, signal) {
      if (input.tool === 'colorizer') throw new Error('the colorizer model is down');
      return instant.run(input, signal);
    },
  };
}

/** One sample's value in the text format, e.g. sample(text, 'x_total{a="b"}'); undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics outside production', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend({ inference: routerWith(colorizerFails()) });
  });
  afterAll(() => backend.stop());

  const metrics = async () => {
    const response = await backend.app.request('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    return response.text();
  };

  it('counts a tool call: its HTTP answer by route pattern, its job by tool, provider and outcome, its tokens', async () => {
    const { client } = await verifiedUser(backend, 20);
    const image = dataUrl(await pngBytes());
    const call = await client.post<{ jobId: string }>(UPSCALER, { image, scale: 2 });
    expect(call.status).toBe(200);
    const charged = 20 - (await tokensOf(client));
    expect(charged).toBeGreaterThan(0);
    // Read by its id: counted under the route's pattern, never the id itself.
    expect((await client.get(`/api/jobs/${call.body.jobId}`)).status).toBe(200);

    const text = await metrics();
    expect(sample(text, `http_request_duration_seconds_count{method="POST",route="${UPSCALER}",status="200"}`)).toBe(1);
    expect(sample(text, 'http_request_duration_seconds_count{method="GET",route="/api/jobs/:id",status="200"}')).toBe(
      1,
    );
    expect(text).not.toContain(call.body.jobId);
    expect(
      sample(text, 'picture_palette_tool_jobs_total{tool="image-upscaler",provider="local",outcome="succeeded"}'),
    ).toBe(1);
    expect(sample(text, 'picture_palette_tool_job_run_seconds_count{tool="image-upscaler",provider="local"}')).toBe(1);
    expect(sample(text, 'picture_palette_tokens_total{movement="charged"}')).toBe(charged);
    // The signup bonus.
    expect(sample(text, 'picture_palette_tokens_total{movement="granted"}')).toBe(20);
    // The process's own, and the queue read at the scrape.
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
    expect(sample(text, 'picture_palette_queue_depth')).toBe(0);
    expect(sample(text, 'picture_palette_queue_oldest_waiting_seconds')).toBe(0);
  });

  it('counts a job that failed as failed, and what it gave back as refunded', async () => {
    const { client } = await verifiedUser(backend, 20);
    const chargedBefore = sample(await metrics(), 'picture_palette_tokens_total{movement="charged"}') ?? 0;
    const call = await client.post<{ error: string; reference: string }>(COLORIZER, {
      image: dataUrl(await pngBytes()),
    });
    expect(call.status).toBe(502);
    expect(await tokensOf(client)).toBe(20);
    // A 5xx carries its reference beside the sentence, which stays the tool's own words.
    expect(call.body.reference).toBe(call.headers.get('x-request-id'));
    expect(call.body.error).toBe(toolById('colorizer').failureMessage);

    const text = await metrics();
    expect(sample(text, 'picture_palette_tool_jobs_total{tool="colorizer",provider="local",outcome="failed"}')).toBe(1);
    const charged = (sample(text, 'picture_palette_tokens_total{movement="charged"}') ?? 0) - chargedBefore;
    expect(charged).toBeGreaterThan(0);
    expect(sample(text, 'picture_palette_tokens_total{movement="refunded"}')).toBe(charged);
  });
});

describe('GET /metrics in production', () => {
  const production = {
    NODE_ENV: 'production',
    APP_URL: 'https://app.example',
    BETTER_AUTH_SECRET: 'metrics-test-secret-of-at-least-32-characters',
    UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION: 'true',
  };
  const METRICS_TOKEN = 'prometheus-scrape-token-0123456789';

  it('is not there without METRICS_TOKEN: answered as any unknown path, with a token or without', async () => {
    const backend = await createTestBackend({ env: production });
    try {
      expect((await backend.app.request('/metrics')).status).toBe(404);
      const headers = { authorization: `Bearer ${METRICS_TOKEN}` };
      const guessed = await backend.app.request('/metrics', { headers });
      const elsewhere = await backend.app.request('/no-such-path', { headers });
      expect(guessed.status).toBe(elsewhere.status);
      expect(await guessed.text()).toBe(await elsewhere.text());
    } finally {
      await backend.stop();
    }
  });

  it('answers only `Authorization: Bearer <METRICS_TOKEN>`: 401 without it or with another', async () => {
    const backend = await createTestBackend({ env: { ...production, METRICS_TOKEN } });
    try {
      const bare = await backend.app.request('/metrics');
      expect(bare.status).toBe(401);
      expect(await bare.text()).not.toContain('http_request_duration_seconds');
      const wrong = await backend.app.request('/metrics', {
        headers: { authorization: 'Bearer not-the-metrics-token-at-all' },
      });
      expect(wrong.status).toBe(401);
      const right = await backend.app.request('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(right.status).toBe(200);
      // The two refusals before it, counted by their route.
      expect(
        sample(await right.text(), 'http_request_duration_seconds_count{method="GET",route="/metrics",status="401"}'),
      ).toBe(2);
    } finally {
      await backend.stop();
    }
  });

  it('is off with METRICS=off, even outside production', async () => {
    const backend = await createTestBackend({ env: { METRICS: 'off' } });
    try {
      expect((await backend.app.request('/metrics')).status).toBe(404);
    } finally {
      await backend.stop();
    }
  });
});

describe('X-Request-Id: a reference for every request', () => {
  const log = recordingLogger();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-references-'));
  let backend: TestBackend;
  beforeAll(async () => {
    // Uploads cannot be stored: a tool call with an image is the app's own 500.
    const real = createFsStorage(dir);
    backend = await createTestBackend({
      logger: log.logger,
      storage: {
        ...real,
        put: async (key, bytes, type) => {
          if (key.startsWith('inputs/')) throw new Error(`disk full writing ${key}`);
          return real.put(key, bytes, type);
        },
      },
    });
  });
  afterAll(async () => {
    await backend.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const idOf = (response: Response) => response.headers.get('x-request-id');

  it('answers with the caller’s id when it is sane', async () => {
    for (const sane of ['a', 'client-42.retry:3_of_5', 'x'.repeat(128)]) {
      const response = await backend.app.request('/api/tools', { headers: { 'x-request-id': sane } });
      expect(response.status).toBe(200);
      expect(idOf(response)).toBe(sane);
    }
  });

  it('answers with an id of its own when the caller sent none, or one that is not sane', async () => {
    const seen = new Set<string>();
    const asked: Record<string, string>[] = [
      {},
      { 'x-request-id': 'has spaces' },
      { 'x-request-id': 'x'.repeat(129) },
      { 'x-request-id': 'a\u00e9b' },
    ];
    for (const headers of asked) {
      const response = await backend.app.request('/api/tools', { headers });
      const id = idOf(response) ?? '';
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(4);
  });

  it('is on a 404', async () => {
    const api = await backend.app.request('/api/no-such-thing', { headers: { 'x-request-id': 'missing-1' } });
    expect(api.status).toBe(404);
    expect(idOf(api)).toBe('missing-1');
    const page = await backend.app.request('/no-such-page');
    expect(page.status).toBe(404);
    expect(idOf(page)).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('is in a 500’s sentence and in every line logged while it was served', async () => {
    const { client } = await verifiedUser(backend, 20);
    const response = await client.request<{ error: string; reference: string }>('POST', UPSCALER, {
      body: { image: dataUrl(await pngBytes()), scale: 2 },
      headers: { 'x-request-id': 'support-case-500' },
    });
    expect(response.status).toBe(500);
    expect(response.headers.get('x-request-id')).toBe('support-case-500');
    expect(response.body).toEqual({
      error: 'Something went wrong on our side. Please try again. Reference: support-case-500',
      reference: 'support-case-500',
    });
    const lines = log.entries.filter((entry) => entry.fields?.requestId === 'support-case-500');
    expect(lines.map((entry) => entry.message)).toContain('unhandled error');
  });
});

describe('GET /metrics counts what support does, expired checkouts and a late signup bonus', () => {
  const OPERATOR_EMAIL = 'metrics.operator@example.com';
  let backend: TestBackend;
  let operator: TestClient;
  beforeAll(async () => {
    // Web only: the charged job below waits for the operator, no worker takes it.
    backend = await createTestBackend({ env: { ADMIN_EMAILS: OPERATOR_EMAIL }, role: { web: true, worker: false } });
    operator = new TestClient(backend.app, backend.config.appUrl);
    expect((await operator.signUp(OPERATOR_EMAIL)).status).toBe(200);
    await backend.database.db.update(user).set({ emailVerified: true }).where(eq(user.email, OPERATOR_EMAIL));
  });
  afterAll(() => backend.stop());

  const metrics = async () => (await backend.app.request('/metrics')).text();
  const tokens = async (movement: string) =>
    sample(await metrics(), `picture_palette_tokens_total{movement="${movement}"}`) ?? 0;

  it("counts an operator's grant as granted, a deduction as deducted and a support refund as refunded", async () => {
    const customer = await verifiedUser(backend, 20);
    const [granted, deducted, refunded] = [await tokens('granted'), await tokens('deducted'), await tokens('refunded')];
    const tokensPath = `/api/admin/accounts/${customer.id}/tokens`;
    expect((await operator.post(tokensPath, { delta: 7, reason: 'paid but credits not received' })).status).toBe(200);
    expect((await operator.post(tokensPath, { delta: -3, reason: 'granted twice by mistake' })).status).toBe(200);
    // A refusal (below zero) moves nothing and counts nothing.
    expect((await operator.post(tokensPath, { delta: -1000, reason: 'too much' })).status).toBe(400);
    const { job } = await chargeTextToPicJob(backend, customer.id);
    await backend.database.db
      .update(jobs)
      .set({ status: 'failed', finishedAt: new Date(), error: 'The provider stopped answering.' })
      .where(eq(jobs.id, job.id));
    const refundPath = `/api/admin/jobs/${job.id}/refund`;
    expect((await operator.post(refundPath, { reason: 'the run failed' })).status).toBe(200);
    expect((await operator.post(refundPath, { reason: 'twice' })).status).toBe(409);

    expect(await tokens('granted')).toBe(granted + 7);
    expect(await tokens('deducted')).toBe(deducted + 3);
    expect(await tokens('refunded')).toBe(refunded + 1);
  });

  it('counts the checkouts the purchase list finds past their hour as expired', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const opened = await client.post('/api/create-checkout-session', { priceId: TOKEN_PACKAGES[0]?.id });
    expect(opened.status).toBe(200);
    await backend.database.db
      .update(payments)
      .set({ createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000) })
      .where(eq(payments.userId, id));
    const expired = sample(await metrics(), 'picture_palette_payments_total{outcome="expired"}') ?? 0;
    const listed = await client.get<{ purchases: { status: string }[] }>('/api/purchases');
    expect(listed.body.purchases.map((p) => p.status)).toEqual(['expired']);
    // Read again: already expired, not counted twice.
    await client.get('/api/purchases');
    expect(sample(await metrics(), 'picture_palette_payments_total{outcome="expired"}')).toBe(expired + 1);
  });

  it('counts the signup bonus a profile read credits when the sign-up hook could not', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    // As a sign-up whose profile was never made leaves it: no profile row, no bonus in the ledger.
    const db = backend.database.db;
    await db.delete(ledger).where(and(eq(ledger.userId, id), eq(ledger.reason, 'signup')));
    await db.delete(profiles).where(eq(profiles.userId, id));
    const granted = await tokens('granted');
    expect(await tokensOf(client)).toBe(20);
    expect(await tokens('granted')).toBe(granted + 20);
  });
});

describe('a process without the app’s HTTP server serves its own metrics on METRICS_PORT', () => {
  let system: RunningSystem;
  let dataDir: string;
  beforeAll(async () => {
    // `npm start -- --worker` as startSystem starts it (its embedded database of its own here).
    const config = { ...testConfig({ METRICS_PORT: '0' }), role: { web: false, worker: true } };
    dataDir = config.dataDir;
    system = await startSystem(config, quietLogger());
  });
  afterAll(async () => {
    await system.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers GET /metrics on 127.0.0.1 with the worker’s process figures and the queue, and nothing else', async () => {
    expect(system.port).toBeNull();
    const base = `http://127.0.0.1:${system.metricsPort}`;
    const scraped = await fetch(`${base}/metrics`);
    expect(scraped.status).toBe(200);
    expect(scraped.headers.get('content-type')).toContain('text/plain');
    const text = await scraped.text();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('picture_palette_tool_jobs_total');
    expect(sample(text, 'picture_palette_queue_depth')).toBe(0);
    const elsewhere = await fetch(`${base}/api/health`);
    expect(elsewhere.status).toBe(404);
    expect((await elsewhere.json()).error).toBe('This address serves only GET /metrics.');
  });
});

describe('the HTTP server’s own 500 (the app never answered)', () => {
  it('carries a reference in X-Request-Id, its JSON and its sentence, and logs it', async () => {
    const log = recordingLogger();
    const server = await listen(
      () => {
        throw new Error('the app blew up before answering');
      },
      { port: 0, hostname: '127.0.0.1', logger: log.logger },
    );
    try {
      const { port } = server.address() as { port: number };
      const response = await fetch(`http://127.0.0.1:${port}/api/tools`);
      expect(response.status).toBe(500);
      const reference = response.headers.get('x-request-id') ?? '';
      expect(reference).toMatch(/^[0-9a-f-]{36}$/);
      expect(await response.json()).toEqual({
        error: `${HTTP_ERROR_MESSAGES.serverError} Reference: ${reference}`,
        reference,
      });
      expect(log.entries.some((entry) => entry.fields?.requestId === reference)).toBe(true);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
