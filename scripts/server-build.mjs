// The server as the processes run it: src/server bundled by esbuild into dist/server, made only when
// its sources changed since the last build (as web-build.mjs does for the web app). `npm start`, the
// admin tool and the local engine process start from it; `npm run dev` and the tests that import the
// server run the sources through tsx or Vitest instead (decision 066).
//
// Why a bundle: started through tsx, a server spent 1.3 of its 3.3 CPU-s before it answered on
// resolving and loading about 3,000 modules (ours, and the many small files of better-auth,
// drizzle-orm, zod and jose). Bundled, it loads one file for those.
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { builtTime, newestMtime } from './sources-time.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SERVER_DIST_DIR = path.join(root, 'dist/server');
const stampFile = path.join(SERVER_DIST_DIR, '.build-stamp');

/** The processes' entries: dist/server/<name>.mjs. */
const ENTRIES = {
  main: 'src/server/main.ts',
  'engine-main': 'src/server/engine-main.ts',
  admin: 'src/server/admin/cli.ts',
};
const inputs = ['src/server', 'src/contract', 'package-lock.json', 'scripts/server-build.mjs'];

/**
 * Packages bundled in: plain JavaScript, and most of a start's module loading. Every other package
 * stays in node_modules and is imported from there: native addons (sharp, onnxruntime), WebAssembly
 * (PGlite), and packages that find their own files (models, workers) beside their code.
 */
const BUNDLED_PACKAGES = [
  'better-auth',
  '@better-auth/',
  'better-call',
  '@better-fetch/',
  'drizzle-orm',
  'zod',
  'jose',
  'hono',
  '@hono/',
  '@noble/',
];

const packageName = (specifier) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0];

const isBundled = (specifier) => {
  const name = packageName(specifier);
  return BUNDLED_PACKAGES.some((bundled) => (bundled.endsWith('/') ? name.startsWith(bundled) : name === bundled));
};

/** Leaves every other package to Node's own resolution at run time. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (isBundled(args.path) ? undefined : { external: true }));
  },
};

/**
 * A module's `import.meta.url` and `import.meta.dirname` stay its source file's: the server finds
 * files beside its sources that way (migrations, model threads' workers, dist/web from src/server),
 * and in one bundle they would all name dist/server. The entries keep their own (main.ts starts the
 * engine entry that is beside it: the bundle's next to the bundle, the source's next to the source).
 */
const sourceImportMeta = {
  name: 'source-import-meta',
  setup(build) {
    const entryFiles = new Set(Object.values(ENTRIES).map((file) => path.join(root, file)));
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (entryFiles.has(args.path) || args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = await readFile(args.path, 'utf8');
      if (!source.includes('import.meta.')) return undefined;
      return {
        contents: source
          .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
          .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(args.path))),
        loader: 'ts',
      };
    });
  },
};

/** Builds dist/server when a source is newer than the last build; true when it is up to date after. */
export async function buildServerIfStale() {
  const sourcesTime = Math.max(...inputs.map((p) => newestMtime(path.join(root, p))));
  if (sourcesTime <= builtTime(stampFile)) return true;
  const esbuild = await import('esbuild');
  // Built beside, then put in place: a process started meanwhile never loads half a build. One file
  // an entry (no shared chunks), so a rebuild never pulls a chunk from under a running process.
  const partial = `${SERVER_DIST_DIR}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    await esbuild.build({
      entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, path.join(root, file)])),
      outdir: partial,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node24',
      // Stack traces name the sources (start.mjs turns source maps on).
      sourcemap: 'linked',
      sourcesContent: false,
      plugins: [externalPackages, sourceImportMeta],
      logLevel: 'warning',
    });
  } catch {
    rmSync(partial, { recursive: true, force: true });
    return false; // esbuild has printed the errors
  }
  writeFileSync(path.join(partial, '.build-stamp'), String(sourcesTime));
  rmSync(SERVER_DIST_DIR, { recursive: true, force: true });
  try {
    renameSync(partial, SERVER_DIST_DIR);
  } catch (error) {
    // Another process built the same sources and put its build in place first.
    rmSync(partial, { recursive: true, force: true });
    if (!existsSync(stampFile)) throw error;
  }
  return true;
}

/** dist/server/<entry>.mjs, e.g. serverEntry('main'). */
export const serverEntry = (name) => path.join(SERVER_DIST_DIR, `${name}.mjs`);
