// Makes src/web/styles/fonts/inter-core.woff2: Inter Variable (SIL Open Font License 1.1, from
// @fontsource-variable/inter's latin file) cut down to the characters of styles/font-core.ts and to
// the weights our styles use (400-800). Every page of ours is written in those characters, so a
// first visit downloads this one font file (22 kB instead of 48 kB) and the full latin and other
// files come by unicode-range only for text that needs them (a name with an accent, say).
// Its licence travels beside it (src/web/styles/fonts/OFL.txt, copied from the package).
// Usage: npx tsx scripts/make-font-subset.ts   (deterministic: run it after a font upgrade)
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import subsetFont from 'subset-font';
import { CORE_FONT_FILE, CORE_FONT_RANGES } from '../src/web/styles/font-core';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCE = path.join(ROOT, 'node_modules/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2');
const OUT = path.join(ROOT, 'src/web/styles', CORE_FONT_FILE);

export async function makeCoreFont(source: Buffer): Promise<Buffer> {
  const text = CORE_FONT_RANGES.flatMap(([from, to]) =>
    Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)),
  ).join('');
  return subsetFont(source, text, { targetFormat: 'woff2', variationAxes: { wght: { min: 400, max: 800 } } });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const source = readFileSync(SOURCE);
  const core = await makeCoreFont(source);
  writeFileSync(OUT, core);
  console.log(`${path.relative(ROOT, OUT)}: ${core.length} bytes (from ${source.length})`);
}
