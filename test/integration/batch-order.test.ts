// A batch's images wait and run in the batch's order (issue 54 item 6): the page sends them two at a
// time, so they reach the server out of order, and their places in the line followed the order they
// came in, not the tiles on screen. Runs on both databases (the charge's statement moves them).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Batch } from '../../src/contract/batches';
import type { InferenceProvider, ToolResult } from '../../src/server/inference/provider';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, verifiedUser } from '../support/tool-fixtures';

/** The instant provider, each run held until the test opens the gate; runs record their image's width. */
function gatedProvider() {
  const instant = instantProvider();
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const provider: InferenceProvider & { started: number[]; open(): void } = {
    ...instant,
    started: [],
    open: () => open(),
    async run(input, signal): Promise<ToolResult> {
      provider.started.push(input.image?.width ?? 0);
      await gate;
      return instant.run(input, signal);
    },
  };
  return provider;
}

const provider = gatedProvider();
let backend: TestBackend;
beforeAll(async () => {
  // One run at a time: a job held at the gate keeps everything after it waiting in the line.
  backend = await createTestBackend({ env: { WORKER_CONCURRENCY: '1' }, inference: routerWith(provider) });
});
afterAll(async () => {
  provider.open();
  await backend.stop();
});
afterEach(async () => {
  expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
});

const image = async (width: number) => dataUrl(await pngBytes(width, 24));
const readBatch = async (client: TestClient, id: string) => (await client.get<Batch>(`/api/batches/${id}`)).body;

describe('a batch whose images reach the server out of order', () => {
  it('numbers their places in the line and runs them in the batch’s order', async () => {
    // Someone else's image runs (held): the batch's images all wait behind it.
    const { client: other } = await verifiedUser(backend);
    const first = await other.request('POST', '/api/remove-background', {
      body: { image: await image(64) },
      headers: { prefer: 'wait=0' },
    });
    expect(first.status).toBe(202);
    await expect.poll(() => provider.started).toEqual([64]);

    const { client } = await verifiedUser(backend, 40);
    const batch = (await client.post<Batch>('/api/batches', { tool: 'background-remover', size: 5 })).body;
    // Image n is 20 + n px wide, so the runs say which image each was.
    for (const item of [3, 1, 4, 0, 2]) {
      const sent = await client.post(`/api/batches/${batch.id}/images`, {
        image: await image(20 + item),
        item,
        name: `IMG_${item}.jpg`,
      });
      expect(sent.status).toBe(202);
    }

    const waiting = await readBatch(client, batch.id);
    expect(waiting.items.map((entry) => [entry.batch?.name, entry.status, entry.queuePosition])).toEqual([
      ['IMG_0.jpg', 'queued', 1],
      ['IMG_1.jpg', 'queued', 2],
      ['IMG_2.jpg', 'queued', 3],
      ['IMG_3.jpg', 'queued', 4],
      ['IMG_4.jpg', 'queued', 5],
    ]);

    provider.open();
    await expect.poll(async () => (await readBatch(client, batch.id)).counts.done, { timeout: 30_000 }).toBe(5);
    expect(provider.started).toEqual([64, 20, 21, 22, 23, 24]);
  });
});
