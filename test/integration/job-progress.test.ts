// Progress that tells the truth (issue 35, item 5): three 2x upscales on the local engine, two worker
// slots. The first runs; the second holds a slot but waits for the model; the third waits for a
// slot. Each is told its place and a time that counts the jobs ahead of it, from the 202 (answered
// as soon as the job is accepted, with Prefer: wait=0) and from GET /api/jobs/:id, which can wait
// for the job's finish (Prefer: wait=N) so that a page following it hears of it at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/server/db/schema';
import { createTypicalRunTime } from '../../src/server/jobs/views/typical-run-time';
import { watchJobWaits } from '../support/job-waits';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, verifiedUser } from '../support/tool-fixtures';

type Progress = {
  status: string;
  queuePosition: number | null;
  typicalSeconds: number | null;
  secondsLeft: number | null;
};

let backend: TestBackend;
let release: () => void = () => {};
const held = new Promise<void>((resolve) => {
  release = resolve;
});
beforeAll(async () => {
  backend = await createTestBackend({
    env: { WORKER_CONCURRENCY: '2' },
    inference: routerWith(instantProvider({ until: held })),
  });
});
afterAll(async () => {
  release();
  await backend.stop();
});

/** Good runs of `tool` on the local engine, one worker: each [start, finish] in seconds before now. */
async function history(userId: string, tool: string, runs: [number, number][]) {
  const now = Date.now();
  await backend.database.db.insert(jobs).values(
    runs.map(([start, finish]) => ({
      userId,
      tool,
      cost: 1,
      charged: 1,
      input: {},
      provider: 'local',
      requestHash: 'history',
      status: 'succeeded' as const,
      startedAt: new Date(now - start * 1000),
      finishedAt: new Date(now - finish * 1000),
    })),
  );
}

describe('a job on a busy local engine', () => {
  it('is told its place, for a slot or for its model, and a time counting the jobs ahead', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    // 2x upscales took 20 s each when they ran; the second and third of three at once waited for the model.
    await history(id, 'image-upscaler', [
      [3600, 3580],
      [3600, 3560],
      [3600, 3540],
    ]);
    const image = dataUrl(await pngBytes(64, 48));
    const answers: (Progress & { jobId: string })[] = [];
    const firstSent = Date.now();
    for (let i = 0; i < 3; i++) {
      // Accepted: answered while no run can end (a call that waited for its job would never answer).
      const answer = await client.request<Progress & { jobId: string }>('POST', '/api/upscale-image', {
        body: { image, scale: 2 },
        headers: { prefer: 'wait=0' },
      });
      expect(answer.status).toBe(202);
      answers.push(answer.body);
    }
    // Each waits for the run before it: 20 s more a place in the line. The time left counts down
    // from when the first run began: by as much as has passed since it was sent, on any machine.
    const expected = [
      { status: 'running', queuePosition: null, typicalSeconds: 20, secondsLeft: 20 },
      { status: 'running', queuePosition: 1, typicalSeconds: 20, secondsLeft: 40 },
      { status: 'queued', queuePosition: 2, typicalSeconds: 20, secondsLeft: 60 },
    ];
    const expectTold = (progress: Progress | undefined, { secondsLeft, ...place }: (typeof expected)[number]) => {
      const passed = (Date.now() - firstSent) / 1000;
      expect(progress).toMatchObject(place);
      expect(progress?.secondsLeft).toBeLessThanOrEqual(secondsLeft);
      expect(progress?.secondsLeft).toBeGreaterThanOrEqual(secondsLeft - passed - 1);
    };
    for (const [index, told] of expected.entries()) expectTold(answers[index], told);

    const view = async (jobId: string) => (await client.request<Progress>('GET', `/api/jobs/${jobId}`)).body;
    for (const [index, told] of expected.entries()) expectTold(await view(answers[index]?.jobId ?? ''), told);

    // A page following the first job asks the job read to wait for its finish: answered as it ends,
    // woken by the finish (not by its wait running out, nor by a re-read).
    const first = answers[0]?.jobId as string;
    const waits = watchJobWaits(backend.signals);
    try {
      const reading = client.request<Progress>('GET', `/api/jobs/${first}`, { headers: { prefer: 'wait=4' } });
      await eventually(async () => waits.waitingFor(first) > 0);
      release();
      const finished = await reading;
      expect(finished.body).toMatchObject({ status: 'succeeded', queuePosition: null, secondsLeft: null });
      expect(waits.handedFinish(first)).toBe(true);
    } finally {
      waits.restore();
    }
  });

  it('times a local run from when it got its model, not from when its slot took it', async () => {
    const { id } = await verifiedUser(backend, 20);
    // Three at once on one worker: 10 s each once each had the model (the last waited 20 s).
    await history(id, 'colorizer', [
      [7200, 7190],
      [7200, 7180],
      [7200, 7170],
    ]);
    const typical = createTypicalRunTime(backend.database.db);
    expect(await typical({ status: 'running', tool: 'colorizer', provider: 'local' })).toBe(10);
  });
});
