// What the local engine's results cost (decision 039): Background Swap's stamped backgrounds are a
// free preview (nothing charged, the answer, the history, My Creations and /api/tools say so, also
// for an empty balance), and the Creative Upscaler is priced like the Image Upscaler (1 token,
// charged, refunded in full when it fails; a 70-token job the local engine ends up serving gets
// the difference back). The ledger invariant holds after each test.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreationList } from '../../src/contract/creations';
import type { JobList, ToolsInfo } from '../../src/contract/tool-responses';
import { ledger } from '../../src/server/db/schema';
import { createDemoProvider } from '../../src/server/inference/demo/demo-provider';
import { createInferenceRouter } from '../../src/server/inference/routing';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { SERVER_TOOLS } from '../../src/server/tools/registry';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const swapBody = async () => ({
  prompt: 'on a beach',
  image: (await pngBytes(40, 30)).toString('base64'),
  num_outputs: 2,
});
const creativeBody = async () => ({ image: dataUrl(await pngBytes(40, 30)), scale: 2 });

const ledgerOf = async (backend: TestBackend, userId: string) =>
  (await backend.database.db.select().from(ledger).where(eq(ledger.userId, userId)))
    .map((row) => `${row.reason} ${row.delta}`)
    .sort();

describe('the local engine', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    // The local engine's name on an instant provider: the prices are the engine's, the work is not.
    backend = await createTestBackend({ inference: routerWith(instantProvider({ delayMs: 300 })) });
  });
  afterAll(() => backend.stop());
  afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

  it('says in /api/tools what each tool takes here: Background Swap free, Creative Upscaler 1 token', async () => {
    const { client } = await verifiedUser(backend);
    const { body } = await client.get<ToolsInfo>('/api/tools');
    const entry = (id: string) => body.tools.find((tool) => tool.id === id);
    expect(entry('background-swap')).toEqual({
      id: 'background-swap',
      provider: 'local',
      demo: false,
      freePreview: true,
      price: 0,
    });
    expect(entry('creative-upscaler')).toMatchObject({ provider: 'local', freePreview: false, price: 1 });
    expect(entry('background-remover')).toMatchObject({ provider: 'local', freePreview: false, price: 2 });
  });

  it('gives Background Swap as a free preview, even on an empty balance, and every answer says so', async () => {
    const { client, id } = await verifiedUser(backend, 0);
    const done = await client.post<Record<string, unknown>>('/api/background-swap', await swapBody());
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ success: true, balance: 0, charged: 0, demo: true });
    expect(done.body.output).toHaveLength(2);

    const pending = await client.request<Record<string, unknown>>('POST', '/api/background-swap', {
      body: await swapBody(),
      headers: { prefer: 'wait=0' },
    });
    expect(pending.status).toBe(202);
    expect(pending.body).toMatchObject({ pending: true, balance: 0, charged: 0, demo: true });

    const jobs = await client.get<JobList>('/api/jobs');
    expect(jobs.body.jobs.find((job) => job.id === done.body.jobId)).toMatchObject({
      tool: 'background-swap',
      cost: 50,
      charged: 0,
      demo: true,
    });
    const creations = await client.get<CreationList>('/api/creations');
    expect(creations.body.creations.find((creation) => creation.id === done.body.jobId)).toMatchObject({
      charged: 0,
      refunded: 0,
      demo: true,
    });
    expect(await ledgerOf(backend, id)).toEqual(['grant -20', 'signup 20']);
  });

  it('charges the Creative Upscaler 1 token, the job says 1, and an empty balance is refused', async () => {
    const { client, id } = await verifiedUser(backend, 1);
    const done = await client.post<Record<string, unknown>>('/api/creative-upscale', await creativeBody());
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body).toMatchObject({ success: true, balance: 0, charged: 1, demo: false });
    const jobs = await client.get<JobList>('/api/jobs');
    expect(jobs.body.jobs).toEqual([expect.objectContaining({ cost: 1, charged: 1, demo: false })]);
    expect(await ledgerOf(backend, id)).toEqual(['grant -19', 'job -1', 'signup 20']);

    const broke = await client.post<Record<string, unknown>>('/api/creative-upscale', await creativeBody());
    expect(broke.status).toBe(402);
    expect(broke.body).toMatchObject({ balance: 0 });
    expect(await tokensOf(client)).toBe(0);
  });
});

describe('a local Creative Upscale that fails', () => {
  it('gives back the 1 token it took', async () => {
    const backend = await createTestBackend({ inference: routerWith(instantProvider({ fail: true })) });
    try {
      const { client, id } = await verifiedUser(backend, 20);
      const response = await client.post<Record<string, unknown>>('/api/creative-upscale', await creativeBody());
      expect(response.status).toBe(502);
      expect(response.body).toMatchObject({ success: false, refunded: true, balance: 20, charged: 1 });
      expect(await ledgerOf(backend, id)).toEqual(['job -1', 'refund 1', 'signup 20']);
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  });
});

/**
 * A backend whose calls are queued for Replicate and whose worker, started with other settings, has
 * only the local engine (the routing changed between queueing and running).
 */
function queuedOnReplicateServedLocally() {
  const replicate = { ...instantProvider(), name: 'replicate' as const };
  const queuedOn = createInferenceRouter(
    { default: 'replicate', perTool: {} },
    { replicate },
    createDemoProvider(SERVER_TOOLS),
  );
  const workerHas = routerWith(instantProvider());
  return createTestBackend({ inference: { ...queuedOn, providerForJob: workerHas.providerForJob } });
}

describe('a job charged at one provider’s price that another serves', () => {
  it('gives back the difference: a 70-token Creative Upscale the local engine served costs 1', async () => {
    // Queued on a paid provider at the spec's 70; served by the local engine.
    const backend = await queuedOnReplicateServedLocally();
    try {
      const { client, id } = await verifiedUser(backend, 100);
      const response = await client.post<Record<string, unknown>>('/api/creative-upscale', await creativeBody());
      expect(response.status).toBe(200);
      expect(await tokensOf(client)).toBe(99);
      expect(await ledgerOf(backend, id)).toEqual(['grant 80', 'job -70', 'refund 69', 'signup 20']);
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
    }
  });

  it('gives all of it back for a Background Swap the local engine served as a free preview', async () => {
    const backend = await queuedOnReplicateServedLocally();
    try {
      const { client, id } = await verifiedUser(backend, 100);
      const response = await client.post<Record<string, unknown>>('/api/background-swap', await swapBody());
      expect(response.status).toBe(200);
      expect(await tokensOf(client)).toBe(100);
      expect(await ledgerOf(backend, id)).toEqual(['grant 80', 'job -50', 'refund 50', 'signup 20']);
      const jobs = await client.get<JobList>('/api/jobs');
      expect(jobs.body.jobs).toEqual([expect.objectContaining({ cost: 50, charged: 50, demo: true })]);
    } finally {
      await backend.stop();
    }
  });
});
