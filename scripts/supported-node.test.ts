// Started on an older Node, a script re-runs itself on the project's Node 24 and the first process
// stands in for it: a signal sent to it (a `kill`, a process manager's stop) reaches the server,
// and it exits as the server does.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SUPPORTED = path.resolve(import.meta.dirname, 'supported-node.mjs');
const OLDER_NODE = '/usr/bin/node';
/** Whether this machine has a Node older than 24 to start from (CI's has 20; one with only 24 has nothing to test). */
const olderNodeHere = (() => {
  try {
    const version = execFileSync(OLDER_NODE, ['--version'], { encoding: 'utf8' });
    return Number(version.trim().slice(1).split('.')[0]) < 24;
  } catch {
    return false;
  }
})();

describe.runIf(olderNodeHere)('a script started on an older Node', () => {
  it('runs on Node 24, passes a SIGTERM on and exits with its status', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-node-'));
    const script = path.join(dir, 'serve.mjs');
    // Stands in for the server: says which Node runs it, then waits for SIGTERM and exits with 3.
    writeFileSync(
      script,
      `import { ensureSupportedNode } from ${JSON.stringify(SUPPORTED)};
await ensureSupportedNode(${JSON.stringify(script)});
process.on('SIGTERM', () => { process.exitCode = 3; clearInterval(timer); });
const timer = setInterval(() => {}, 1000);
console.log(JSON.stringify({ version: process.version, pid: process.pid }));`,
    );
    try {
      const parent = spawn(OLDER_NODE, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const started = await new Promise<{ version: string; pid: number }>((resolve) =>
        parent.stdout.once('data', (chunk) => resolve(JSON.parse(String(chunk)))),
      );
      expect(started.version).toMatch(/^v24\./);
      expect(started.pid).not.toBe(parent.pid);

      const exited = new Promise<number | null>((resolve) => parent.once('exit', (code) => resolve(code)));
      parent.kill('SIGTERM');
      expect(await exited).toBe(3);
      expect(() => process.kill(started.pid, 0)).toThrow(); // the server is gone too
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
