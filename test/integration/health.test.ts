import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { chargeTextToPicJob, verifiedUser } from '../support/tool-fixtures';

describe('GET /api/health', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  it('reports the database, the queue and every provider as configured', async () => {
    const response = await backend.app.request('/api/health');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.status).toBe('ok');
    expect(body.database).toMatchObject({
      status: 'ok',
      dialect: backend.database.dialect,
      instanceId: backend.instance.instanceId,
    });
    expect(body.queue).toEqual({ status: 'ok', latencyMs: expect.any(Number), waiting: { 'tool-run': 0 } });
    expect(body.process).toMatchObject({ web: true, worker: true });
    expect(body.providers).toMatchObject({
      inference: { provider: 'demo', external: false, tools: expect.objectContaining({ 'text-to-pic': 'demo' }) },
      payments: { provider: 'local', external: false },
      mail: { provider: 'outbox', external: false },
      storage: { provider: 'fs', external: false },
    });
  });

  it('counts the tool jobs waiting in the jobs table as the one queue, tool-run', async () => {
    // Slots that do not poll during the test: the job stays queued.
    const idle = await createTestBackend({ env: { QUEUE_POLL_SECONDS: '60' } });
    try {
      const waiting = async () => (await (await idle.app.request('/api/health')).json()).queue.waiting;
      expect(await waiting()).toEqual({ 'tool-run': 0 });
      const { id } = await verifiedUser(idle, 20);
      await chargeTextToPicJob(idle, id);
      await chargeTextToPicJob(idle, id);
      expect((await waiting())['tool-run']).toBe(2);
    } finally {
      await idle.stop();
    }
  });

  it('answers 503 with the failing part when the database is gone', async () => {
    const broken = await createTestBackend();
    await broken.database.close();
    const response = await broken.app.request('/api/health');
    expect(response.status).toBe(503);
    const body = await response.json();
    expect(body.status).toBe('degraded');
    expect(body.database.status).toBe('error');
    expect(typeof body.database.error).toBe('string');
    await broken.stop().catch(() => {});
  });

  it('names the external providers that the environment selects', async () => {
    const configured = await createTestBackend({
      env: {
        REPLICATE_API_TOKEN: 'r8_test',
        INFERENCE_PROVIDER: 'replicate',
        STRIPE_SECRET_KEY: 'sk_test_x',
        STRIPE_WEBHOOK_SECRET: 'whsec_x',
        STRIPE_PRICE_500: 'price_500',
        STRIPE_PRICE_1100: 'price_1100',
        STRIPE_PRICE_2400: 'price_2400',
        SMTP_URL: 'smtp://127.0.0.1:2525',
      },
    });
    try {
      const body = await (await configured.app.request('/api/health')).json();
      expect(body.providers.inference).toMatchObject({ provider: 'replicate', external: true });
      expect(body.providers.payments).toEqual({ provider: 'stripe', external: true });
      expect(body.providers.mail).toEqual({ provider: 'smtp', external: true });
    } finally {
      await configured.stop();
    }
  });
});

describe('unknown API routes', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  it('answer 404 in JSON, never with the web app', async () => {
    const response = await backend.app.request('/api/no-such-thing', {
      method: 'POST',
      headers: { origin: backend.config.appUrl },
    });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ error: 'No API route for POST /api/no-such-thing' });
  });
});

describe('GET /api/health in production', () => {
  let backend: TestBackend;
  const HEALTH_TOKEN = 'operator-health-token-0123456789';
  beforeAll(async () => {
    backend = await createTestBackend({
      env: {
        NODE_ENV: 'production',
        APP_URL: 'https://app.example',
        BETTER_AUTH_SECRET: 'health-test-secret-of-at-least-32-characters',
        UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION: 'true',
        HEALTH_TOKEN,
        // One proxy in front: the client is the last X-Forwarded-For address, not the proxy's loopback socket.
        TRUST_PROXY_HOPS: '1',
      },
    });
  });
  afterAll(() => backend.stop());

  const health = (headers: Record<string, string>) => backend.app.request('/api/health', { headers });

  it('tells a public caller the status and nothing else (no pid, instance, queues or providers)', async () => {
    const response = await health({ 'x-forwarded-for': '203.0.113.7' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    const wrongToken = await health({ 'x-forwarded-for': '203.0.113.7', authorization: 'Bearer not-the-token-at-all' });
    expect(await wrongToken.json()).toEqual({ status: 'ok' });
  });

  it('shows the details to an operator with HEALTH_TOKEN, or on this machine', async () => {
    const withToken = await (
      await health({ 'x-forwarded-for': '203.0.113.7', authorization: `Bearer ${HEALTH_TOKEN}` })
    ).json();
    expect(withToken).toMatchObject({ status: 'ok', database: { instanceId: backend.instance.instanceId } });
    expect(withToken.providers.payments.provider).toBe('local');
    const local = await (await health({ 'x-forwarded-for': '127.0.0.1' })).json();
    expect(local.process).toMatchObject({ web: true });
  });

  it('does not take a client-supplied address header as proof of being local', async () => {
    const forged = await (await health({ 'x-forwarded-for': '203.0.113.7', 'x-pp-client-ip': '127.0.0.1' })).json();
    expect(forged).toEqual({ status: 'ok' });
  });
});
