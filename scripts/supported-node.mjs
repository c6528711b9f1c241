// The Node.js the project runs on (decision 044): 24 LTS, brought by the npm package `node` into
// node_modules/.bin, which npm scripts put first on PATH. Started some other way on an older Node
// (`node scripts/start.mjs`), a script re-runs itself on the project's Node, or stops with a message
// that names the version needed and how to get it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REQUIRED_NODE_MAJOR = 24;
/** Ends this process now, with the other one's status (its handlers keep nothing else to do). */
const endProcess = process.exit.bind(process);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const projectNode = path.join(root, 'node_modules/.bin/node');

/**
 * Resolves when this process runs on the required Node. Otherwise runs `script` on it and never
 * resolves: this process passes on the signals it gets (a `kill`, a process manager's stop; the
 * server must not be left running without it) and exits as the other one does.
 */
export function ensureSupportedNode(script) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= REQUIRED_NODE_MAJOR) return Promise.resolve();
  if (!existsSync(projectNode)) {
    console.error(
      `Picture Palette needs Node.js ${REQUIRED_NODE_MAJOR} or newer; this is ${process.version}. ` +
        'Run `npm install` first (it brings Node 24 into node_modules/.bin), or install Node 24 LTS.',
    );
    process.exit(1);
  }
  const child = spawn(projectNode, [script, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => endProcess(code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : 1)));
  return new Promise(() => {});
}
