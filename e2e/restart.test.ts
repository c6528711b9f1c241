// `npm start` on the embedded database: data written before a stop is there after the restart,
// whether the process was stopped politely or killed; and a job the kill caught mid-run is run
// again at the restart (not left running until the queue's 15-minute expiry).
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { verifiedApiUser } from './support/mail';
import { type ServerProcess, startServerProcess } from './support/server';

// The small cat: the run is killed as soon as a worker holds it (while the model loads), so its
// size only sets how long the run after the restart takes.
const IMAGE = `data:image/png;base64,${readFileSync(path.resolve(import.meta.dirname, 'fixtures/chelsea-small.png')).toString('base64')}`;

async function health(server: ServerProcess) {
  const response = await fetch(`${server.url}/api/health`);
  expect(response.status).toBe(200);
  return response.json();
}

// Two server starts a test, and a run: a minute was not enough at a load of 15. The limit only catches a hang.
describe('a restart of the server', { timeout: 600_000 }, () => {
  const dataDirs: string[] = [];
  afterAll(() => {
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  });

  it.each(['SIGTERM', 'SIGKILL'] as const)('keeps the data after %s', async (signal) => {
    const first = await startServerProcess();
    dataDirs.push(first.dataDir);
    const before = await health(first);
    expect(before.database.dialect).toBe('pglite');
    const exitCode = await first.stop(signal);
    if (signal === 'SIGTERM') expect(exitCode).toBe(0);

    const second = await startServerProcess({ dataDir: first.dataDir });
    try {
      const after = await health(second);
      expect(after.database.instanceId).toBe(before.database.instanceId);
      expect(after.database.createdAt).toBe(before.database.createdAt);
      expect(after.process.pid).not.toBe(before.process.pid);
    } finally {
      await second.stop();
    }
  });

  it("runs a job caught by SIGKILL again at the restart, not at the queue's expiry: done, charged once", async () => {
    // The upscaler on the local engine: slow enough to be killed mid-run. The queue's expiry stays
    // at its default (15 minutes): only the dead worker's lease can bring the job back in time.
    const env = { INFERENCE_TOOLS: 'image-upscaler=local', NSFW_POLICY: 'allow' };
    const first = await startServerProcess({ env });
    dataDirs.push(first.dataDir);
    const cookie = await verifiedApiUser(first.url, `restart.${Date.now()}@example.com`);
    const call = (server: ServerProcess, method: string, apiPath: string, body?: unknown) =>
      fetch(`${server.url}/api${apiPath}`, {
        method,
        headers: { origin: server.url, 'content-type': 'application/json', cookie, prefer: 'wait=0' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const started = await call(first, 'POST', '/upscale-image', { image: IMAGE, scale: 6 });
    expect(started.status).toBe(202);
    const { jobId } = (await started.json()) as { jobId: string };
    const statusOn = async (server: ServerProcess) =>
      ((await (await call(server, 'GET', `/jobs/${jobId}`)).json()) as { status: string }).status;
    // Killed once a worker holds it (the caps here and below only catch a hang).
    await expect.poll(() => statusOn(first), { timeout: 120_000, interval: 50 }).toBe('running');
    await first.stop('SIGKILL');

    const second = await startServerProcess({ dataDir: first.dataDir, env });
    try {
      // Seen through the API: the killed run's `running` gives way at start (handed back, run again
      // at once), so the job is done in the time of one run (seconds), not after the queue's
      // 15-minute expiry: followed for 5 minutes at most.
      const restartedAt = Date.now();
      const seen: string[] = [];
      while (Date.now() - restartedAt < 5 * 60_000) {
        const status = await statusOn(second);
        if (seen.at(-1) !== status) seen.push(status);
        if (status === 'succeeded' || status === 'failed') break;
        await new Promise((r) => setTimeout(r, 200));
      }
      const finishedAfter = (Date.now() - restartedAt) / 1000;
      console.info(
        `job caught by SIGKILL: ${seen.at(-1)} ${finishedAfter.toFixed(1)} s after the restart (${seen.join(' -> ')})`,
      );
      expect(seen.at(-1)).toBe('succeeded');
      const profile = (await (await call(second, 'GET', '/profile')).json()) as { tokens: number };
      expect(profile.tokens).toBe(19);
    } finally {
      await second.stop();
    }
  });
});
