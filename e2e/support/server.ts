// Runs the real server as `npm start` does (scripts/start.mjs), on a free port with its own data.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { seedDataDir } from '../../test/support/pglite-seed';

const ROOT = path.resolve(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

export type ServerProcess = {
  url: string;
  dataDir: string;
  child: ChildProcess;
  output(): string;
  /** Stops the process with `signal` and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

export async function startServerProcess(
  options: { dataDir?: string; env?: Record<string, string>; args?: string[]; timeoutMs?: number } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  let dataDir = options.dataDir;
  if (!dataDir) {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-e2e-'));
    seedDataDir(dataDir);
  }
  const child = spawn(process.execPath, ['scripts/start.mjs', ...(options.args ?? [])], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const workerOnly = options.args?.includes('--worker') ?? false;

  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  for (;;) {
    if (child.exitCode !== null)
      throw new Error(`server exited with ${child.exitCode} before it was ready:\n${output}`);
    if (workerOnly) {
      // A worker serves no HTTP: it is ready when it says so (LOG_LEVEL info or lower).
      if (output.includes('"msg":"worker started"')) break;
    } else {
      try {
        const response = await fetch(`${url}/api/health`);
        if (response.ok) break;
      } catch {
        // not listening yet
      }
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server not ready within the time limit:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    dataDir,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** The Cookie header a browser would send after this answer (a sign-up's or sign-in's). */
export const cookieHeaderFrom = (answer: Response): string =>
  answer.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
