// `npm start` on the embedded database: data written before a stop is there after the restart,
// whether the process was stopped politely or killed.
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { type ServerProcess, startServerProcess } from './support/server';

async function health(server: ServerProcess) {
  const response = await fetch(`${server.url}/api/health`);
  expect(response.status).toBe(200);
  return response.json();
}

describe('a restart of the server', () => {
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
});
