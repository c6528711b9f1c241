// Money: a tool call is charged exactly once, never below zero, refunded when it fails, and a
// crash between the debit and the result loses nothing; a result the demo served costs nothing. The ledger invariant holds after each test.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobs, ledger } from '../../src/server/db/schema';
import { createDemoProvider } from '../../src/server/inference/demo/demo-provider';
import { type InferenceProvider, ProviderError } from '../../src/server/inference/provider';
import { createInferenceRouter } from '../../src/server/inference/routing';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { quietLogger } from '../../src/server/log';
import { startBackend } from '../../src/server/system';
import { SERVER_TOOLS } from '../../src/server/tools/registry';
import { createTestBackend, eventually, type TestBackend, testConfig } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const generate = { prompt: 'a small boat', numOutputs: 1 };

/** Prompts the shared back end's provider is busy for (a retryable failure): the first run, or every run. */
const BUSY_ONCE = 'a small boat, once the provider is free';
const ALWAYS_BUSY = 'a small boat, while the provider stays down';

/**
 * The provider of the back end most tests here share: answers at once, but fails every upscale
 * (not retryable: the job fails at once) and is busy for BUSY_ONCE's first run and every ALWAYS_BUSY
 * run. `runsOf`: how many runs a prompt had.
 */
function scriptedProvider() {
  const instant = instantProvider();
  const runs = new Map<string, number>();
  const provider: InferenceProvider = {
    ...instant,
    async run(input, signal) {
      if (input.tool === 'image-upscaler') throw new Error('provider exploded');
      const prompt = 'prompt' in input ? String(input.prompt) : '';
      const run = (runs.get(prompt) ?? 0) + 1;
      runs.set(prompt, run);
      if (prompt === ALWAYS_BUSY || (prompt === BUSY_ONCE && run === 1)) {
        throw new ProviderError('busy', { retryable: true });
      }
      return instant.run(input, signal);
    },
  };
  return { provider, runsOf: (prompt: string) => runs.get(prompt) ?? 0 };
}

// One back end for these: starting one is most of a short test's work.
describe('on one back end', () => {
  const scripted = scriptedProvider();
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend({
      // About the balance: a burst of 200 calls must meet it, not the per-user job cap (fair-queue.test.ts).
      // Retries due 0.05-0.2 s after a busy run.
      env: { MAX_ACTIVE_JOBS_PER_USER: '1000', TOOL_RETRY_DELAY_SECONDS: '0.05' },
      inference: routerWith(scripted.provider),
    });
  });
  afterAll(() => backend.stop());
  afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

  describe('charging', () => {
    it('charges 200 concurrent calls on a balance of 20 exactly what fits, never below zero', async () => {
      const { client, id } = await verifiedUser(backend, 20);
      const responses = await Promise.all(
        Array.from({ length: 200 }, () => client.post('/api/generate-image', generate)),
      );
      const statuses = responses.map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(20);
      expect(statuses.filter((s) => s === 402)).toHaveLength(180);
      expect(await tokensOf(client)).toBe(0);
      const debits = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
      expect(debits.filter((r) => r.reason === 'job')).toHaveLength(20);
      expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toHaveLength(20);
    }, 120_000);

    it('answers a repeated Idempotency-Key with the same job and charges once', async () => {
      const { client } = await verifiedUser(backend, 20);
      const send = (body: unknown) =>
        client.request<{ jobId: string; balance: number }>('POST', '/api/generate-image', {
          body,
          headers: { 'idempotency-key': 'retry-me-1' },
        });
      const results = await Promise.all([send(generate), send(generate), send(generate)]);
      expect(new Set(results.map((r) => r.body.jobId)).size).toBe(1);
      expect(results.every((r) => r.status === 200)).toBe(true);
      const later = await send(generate);
      expect(later.body.jobId).toBe(results[0]?.body.jobId);
      expect(await tokensOf(client)).toBe(19);

      const reused = await send({ ...generate, prompt: 'something else' });
      expect(reused.status).toBe(422);
      expect(reused.body).toMatchObject({ error: 'This Idempotency-Key was already used for a different request.' });
      expect(await tokensOf(client)).toBe(19);
    });

    it('answers a retry with its job even when that job spent the last tokens', async () => {
      const { client } = await verifiedUser(backend, 1);
      const send = () =>
        client.request<{ jobId: string; balance: number }>('POST', '/api/generate-image', {
          body: generate,
          headers: { 'idempotency-key': 'last-token' },
        });
      const first = await send();
      expect(first.status).toBe(200);
      expect(first.body.balance).toBe(0);
      const retry = await send();
      expect(retry.status).toBe(200);
      expect(retry.body.jobId).toBe(first.body.jobId);
      expect(await tokensOf(client)).toBe(0);
    });
  });

  describe('a failing provider', () => {
    it('refunds the call and says what failed', async () => {
      const { client, id } = await verifiedUser(backend, 20);
      const response = await client.post<Record<string, unknown>>('/api/upscale-image', {
        image: dataUrl(await pngBytes()),
        scale: 2,
      });
      expect(response.status).toBe(502);
      expect(response.body).toMatchObject({
        success: false,
        error: 'Upscale failed. Please try again.',
        refunded: true,
        balance: 20,
      });
      const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
      expect(rows.map((r) => `${r.reason} ${r.delta}`).sort()).toEqual(['job -1', 'refund 1', 'signup 20']);
    });

    it('retries a retryable failure and charges once when it then succeeds', async () => {
      const { client } = await verifiedUser(backend, 20);
      const response = await client.post<{ success: boolean; balance: number }>('/api/generate-image', {
        ...generate,
        prompt: BUSY_ONCE,
      });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, balance: 19 });
      expect(scripted.runsOf(BUSY_ONCE)).toBe(2);
    }, 60_000);
  });

  describe('a provider that stays down', () => {
    it('is tried three times, then the job fails and is refunded, not left running', async () => {
      const { client, id } = await verifiedUser(backend, 20);
      // Answered at once (202): its three tries may all end within a wait.
      const pending = await client.request<{ jobId: string }>('POST', '/api/generate-image', {
        body: { ...generate, prompt: ALWAYS_BUSY },
        headers: { prefer: 'wait=0' },
      });
      expect(pending.status).toBe(202);
      const failed = await eventually(async () => {
        const job = await client.get<{ status: string; error: string }>(`/api/jobs/${pending.body.jobId}`);
        return job.body.status === 'failed' ? job.body : null;
      }, 60_000);
      expect(failed.error).toBe('Failed to generate image');
      expect(scripted.runsOf(ALWAYS_BUSY)).toBe(3);
      expect(await tokensOf(client)).toBe(20);
      const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
      expect(rows.filter((r) => r.reason === 'refund')).toHaveLength(1);
    }, 90_000);
  });
});

describe('a worker that dies mid-job', () => {
  it('leaves a job that a restarted worker completes, charged once', async () => {
    // The shortest lease, so that the sweep that hands the job back looks every half second; one
    // slot, so that the dead worker's is taken by the hanging run and cannot take the job again; a
    // stop that waits for its runs as long as they take (the hanging one is let go first).
    const env = {
      TOOL_JOB_EXPIRE_SECONDS: '2',
      WORKER_LEASE_SECONDS: '3',
      WORKER_CONCURRENCY: '1',
      WORKER_STOP_WAIT_SECONDS: '60',
    };
    // Hangs until the test ends, then lets go before the database closes: a run still pending then
    // would write to a closed database, an error in whichever test runs next.
    let letGo = () => {};
    const hanging = instantProvider({ until: new Promise<void>((resolve) => (letGo = resolve)) });
    const first = await createTestBackend({ env, inference: routerWith(hanging) });
    const { client, id } = await verifiedUser(first, 20);
    const pending = await client.request<{ jobId: string; status: string }>('POST', '/api/generate-image', {
      body: generate,
      headers: { prefer: 'wait=0' },
    });
    expect(pending.status).toBe(202);
    await eventually(async () => hanging.calls.length > 0);
    // The crash: this worker's run hangs, its job left running. A second worker starts on the same
    // database (on PGlite it removes the first's lease: the data dir is its alone; on PostgreSQL
    // the run expires after TOOL_JOB_EXPIRE_SECONDS) and the job is handed back to it.
    const second = await startBackend(testConfig(env), quietLogger(), first.database, {
      inference: routerWith(instantProvider()),
    });
    try {
      const done = await eventually(async () => {
        const [job] = await first.database.db.select().from(jobs).where(eq(jobs.id, pending.body.jobId));
        return job?.status === 'succeeded' ? job : null;
      }, 30_000);
      expect(done.attempts).toBeGreaterThanOrEqual(2);
      const rows = await first.database.db.select().from(ledger).where(eq(ledger.userId, id));
      expect(rows.filter((r) => r.reason === 'job')).toHaveLength(1);
      expect(rows.filter((r) => r.reason === 'refund')).toHaveLength(0);
      expect(await findLedgerMismatches(first.database.db)).toEqual([]);
    } finally {
      await second.stop();
      letGo();
      // The dead worker's stop waits for the abandoned run's bookkeeping, then its loops end too
      // (test files share their process: left running, they would poll a closed database).
      await first.stop();
    }
  }, 60_000);
});

describe('a paid job the demo ends up serving', () => {
  it('is refunded when it finishes: users pay only for real results', async () => {
    // The web process queues on a paid provider; the worker, started with other settings, no longer
    // has it and falls back to the demo (the routing changed between queueing and running).
    const queuedOn = routerWith(instantProvider());
    const workerHas = createInferenceRouter({ default: 'demo', perTool: {} }, {}, createDemoProvider(SERVER_TOOLS));
    const backend = await createTestBackend({
      inference: { ...queuedOn, providerForJob: workerHas.providerForJob },
    });
    try {
      const { client, id } = await verifiedUser(backend, 20);
      const response = await client.post<{ success: boolean; balance: number; jobId: string }>(
        '/api/generate-image',
        generate,
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, balance: 20 });
      expect(await tokensOf(client)).toBe(20);
      const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
      expect(rows.map((r) => `${r.reason} ${r.delta}`).sort()).toEqual(['job -1', 'refund 1', 'signup 20']);
      const history = await client.get<{ jobs: Record<string, unknown>[] }>('/api/jobs');
      expect(history.body.jobs).toEqual([
        expect.objectContaining({ id: response.body.jobId, cost: 1, charged: 1, demo: true }),
      ]);
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  });
});

describe('a free preview that fails', () => {
  it('gives nothing back, as it took nothing', async () => {
    const failingDemo = { ...instantProvider({ fail: true }), name: 'demo' as const };
    const backend = await createTestBackend({ inference: routerWith(failingDemo) });
    try {
      const { client, id } = await verifiedUser(backend, 20);
      const response = await client.post<Record<string, unknown>>('/api/generate-image', generate);
      expect(response.status).toBe(502);
      expect(response.body).toMatchObject({ success: false, balance: 20 });
      const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
      expect(rows.map((r) => `${r.reason} ${r.delta}`)).toEqual(['signup 20']);
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  });
});
