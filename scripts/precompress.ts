// A Vite plugin: after the build writes dist/web, every text asset gets a brotli (.br) and a gzip
// (.gz) twin, made once here at maximum quality instead of on every request. The static handler
// (src/server/pages/spa.ts) serves the twin the browser accepts. Images and fonts are already
// compressed and are left alone.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { Plugin } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this, headers outweigh the saving. */
const MIN_BYTES = 256;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    return statSync(file).isDirectory() ? filesUnder(file) : [file];
  });
}

export function precompressDir(dir: string) {
  for (const file of filesUnder(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const bytes = readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    const brotli = brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    });
    const gzip = gzipSync(bytes, { level: 9 });
    if (brotli.length < bytes.length) writeFileSync(`${file}.br`, brotli);
    if (gzip.length < bytes.length) writeFileSync(`${file}.gz`, gzip);
  }
}

export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'picture-palette:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    // Last: after every other plugin has written its files.
    closeBundle: { order: 'post', handler: () => precompressDir(outDir) },
  };
}
