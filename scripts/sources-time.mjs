// When a build's sources last changed, and when it was built: web-build.mjs and server-build.mjs
// rebuild only when a source is newer than their stamp.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** The newest modification time under `target` (a file or a folder), 0 when it does not exist. */
export function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(target)) newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** The sources' time a build's stamp file records, 0 without one. */
export const builtTime = (stampFile) => (existsSync(stampFile) ? Number(readFileSync(stampFile, 'utf8')) : 0);
