// bench/local-models: every local engine's benchmark (bench/local-models/*.bench.ts), each in its
// own process so that peak memory is the tool's own. Run: npx tsx bench/local-models.ts [name...]
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const dir = path.join(import.meta.dirname, 'local-models');
const wanted = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.includes(w)))
  .sort();
console.log(`Local models on ${process.platform}/${process.arch}, Node ${process.version}\n`);
let failed = 0;
for (const file of files) {
  console.log(`# ${file}`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { stdio: 'inherit' });
  if (run.status !== 0) failed += 1;
  console.log('');
}
process.exit(failed ? 1 : 0);
