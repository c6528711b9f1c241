// Fair scheduling: one user's pile of jobs does not make everyone else wait. Each user may have at
// most MAX_ACTIVE_JOBS_PER_USER jobs queued or running (429 beyond, nothing charged or stored), and
// the queue takes each user's n-th waiting job before anyone's (n+1)-th.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_MESSAGES } from '../../src/contract/tools';
import type { InferenceProvider } from '../../src/server/inference/provider';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import type { TestClient } from '../support/http-client';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const CAP = 4;

type Answer = { success: boolean; pending?: boolean; jobId: string; queuePosition: number | null; error?: string };
type View = { status: string; queuePosition: number | null };

/**
 * Runs that each hold until the test ends them, one at a time: the prompts in the order the queue
 * gave them to the one slot. Once `endAll` is called, every run (held or to come) ends at once.
 */
function heldRuns() {
  const instant = instantProvider();
  const prompts: string[] = [];
  const holds: Array<() => void> = [];
  let ended = false;
  const provider: InferenceProvider = {
    ...instant,
    async run(input, signal) {
      prompts.push('prompt' in input ? String(input.prompt) : '');
      if (!ended) await new Promise<void>((end) => holds.push(end));
      return instant.run(input, signal);
    },
  };
  return {
    provider,
    prompts,
    /** Ends the run in hand once it has begun (the `n`-th run), so the slot takes the next job. */
    async end(n: number) {
      await eventually(async () => holds.length === n);
      holds[n - 1]?.();
    },
    endAll() {
      ended = true;
      for (const end of holds) end();
    },
  };
}

const runs = heldRuns();
let backend: TestBackend;
beforeAll(async () => {
  // One job at a time, each until the test ends it: whatever is sent in a burst waits in the queue.
  backend = await createTestBackend({
    env: { MAX_ACTIVE_JOBS_PER_USER: String(CAP), WORKER_CONCURRENCY: '1' },
    inference: routerWith(runs.provider),
  });
});
afterAll(async () => {
  runs.endAll();
  await backend.stop();
});
afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

/** A Text to Pic call answered at once (202 with the job id) while the job waits or runs. */
const generate = (client: TestClient, prompt: string) =>
  client.request<Answer>('POST', '/api/generate-image', {
    body: { prompt, aspectRatio: '1:1', numOutputs: 1, quality: 'low' },
    headers: { prefer: 'wait=0' },
  });

const view = async (client: TestClient, id: string) => (await client.request<View>('GET', `/api/jobs/${id}`)).body;

async function untilDone(client: TestClient, id: string): Promise<View> {
  await expect.poll(async () => (await view(client, id)).status, { timeout: 30_000 }).toBe('succeeded');
  return view(client, id);
}

/** Every stored input file (DATA_DIR/files/inputs/<job>/<n>.<ext>). */
function storedInputs() {
  const folder = path.join(backend.config.dataDir, 'files', 'inputs');
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
}

describe('fair queue', () => {
  it('serves another user’s calls between the jobs of one user’s pile, and caps the pile', async () => {
    const a = await verifiedUser(backend, 20);
    const b = await verifiedUser(backend, 20);
    const aJobs: string[] = [];
    for (let i = 0; i < CAP; i++) {
      const answer = await generate(a.client, `pile ${i}`);
      expect(answer.status).toBe(202);
      aJobs.push(answer.body.jobId);
    }

    // A's next call, with an image to store, is over the cap: refused, not charged, nothing kept.
    const image = dataUrl(await pngBytes());
    const refused = await a.client.request<Answer>('POST', '/api/remove-background', {
      body: { image },
      headers: { prefer: 'wait=0' },
    });
    expect(refused.status).toBe(429);
    expect(refused.body.error).toBe(TOOL_MESSAGES.tooManyJobs(CAP));
    expect(refused.body.error).toBe('You already have 4 jobs in progress. Please wait for one to finish.');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await tokensOf(a.client)).toBe(20 - CAP);
    const listed = await a.client.request<{ jobs: unknown[] }>('GET', '/api/jobs');
    expect(listed.body.jobs).toHaveLength(CAP);
    expect(storedInputs(), 'no input stored for the refused call').toEqual([]);

    // B's first call goes before A's second job: next in line, not behind A's whole pile; B's
    // second call goes after A's second job, before A's third.
    const b1 = await generate(b.client, 'first of two');
    expect(b1.status).toBe(202);
    expect(b1.body.queuePosition).toBe(1);
    const b2 = await generate(b.client, 'second of two');
    expect(b2.body.queuePosition).toBe(3);
    // A's waiting jobs moved back for them: A2 is second, A3 fourth.
    expect((await view(a.client, aJobs[1] as string)).queuePosition).toBe(2);
    expect((await view(a.client, aJobs[2] as string)).queuePosition).toBe(4);

    // Served in turn: A1, B1, A2, B2, A3, A4, each run ended by the test before the next is taken.
    const inTurn = ['pile 0', 'first of two', 'pile 1', 'second of two', 'pile 2', 'pile 3'];
    for (let n = 1; n <= inTurn.length; n++) await runs.end(n);
    expect(runs.prompts).toEqual(inTurn);
    for (const answer of [b1, b2]) await untilDone(b.client, answer.body.jobId);
    for (const id of aJobs) await untilDone(a.client, id);

    // Once A's jobs are done, A may queue again.
    expect((await generate(a.client, 'after the pile')).status).toBe(202);
  }, 60_000);

  it('lets concurrent calls of one user past the cap exactly CAP times, charging only those', async () => {
    const c = await verifiedUser(backend, 20);
    const answers = await Promise.all(Array.from({ length: 2 * CAP }, (_, i) => generate(c.client, `burst ${i}`)));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(CAP).fill(202), ...Array(CAP).fill(429)]);
    expect(await tokensOf(c.client)).toBe(20 - CAP);
  }, 60_000);

  it('answers concurrent retries of one call at the cap with its job, charged once', async () => {
    const d = await verifiedUser(backend, 20);
    for (let i = 0; i < CAP - 1; i++) expect((await generate(d.client, `fill ${i}`)).status).toBe(202);
    const retries = await Promise.all(
      Array.from({ length: 3 }, () =>
        d.client.request<Answer>('POST', '/api/generate-image', {
          body: { prompt: 'the last one', aspectRatio: '1:1', numOutputs: 1, quality: 'low' },
          headers: { prefer: 'wait=0', 'idempotency-key': 'last-one' },
        }),
      ),
    );
    expect(retries.map((r) => r.status)).toEqual([202, 202, 202]);
    expect(new Set(retries.map((r) => r.body.jobId)).size).toBe(1);
    expect(await tokensOf(d.client)).toBe(20 - CAP);
  }, 60_000);
});
