// The Node.js the project runs on (decision 044): 24 LTS, brought by the npm package `node` into
// node_modules/.bin, which npm scripts put first on PATH. Started some other way on an older Node
// (`node scripts/start.mjs`), a script re-runs itself on the project's Node, or stops with a message
// that names the version needed and how to get it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REQUIRED_NODE_MAJOR = 24;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const projectNode = path.join(root, 'node_modules/.bin/node');

/** Returns when this process runs on the required Node; otherwise runs `script` on it and exits. */
export function ensureSupportedNode(script) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= REQUIRED_NODE_MAJOR) return;
  if (!existsSync(projectNode)) {
    console.error(
      `Picture Palette needs Node.js ${REQUIRED_NODE_MAJOR} or newer; this is ${process.version}. ` +
        'Run `npm install` first (it brings Node 24 into node_modules/.bin), or install Node 24 LTS.',
    );
    process.exit(1);
  }
  const result = spawnSync(projectNode, [script, ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(result.status ?? 1);
}
