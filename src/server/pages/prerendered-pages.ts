// Prerendered pages (decision 021): the app's pages as HTML inside index.html, so that a first visit
// paints the page before any script has run; the browser hydrates it (src/web/main.tsx). Rendered by
// the SSR build of the app (dist/web-ssr, made by `npm run build`: scripts/prerender.ts), once per
// page and variant for the life of a build, and kept with its brotli and gzip twins, as the build
// keeps those of its files. Rendered here rather than in the build because a tool page shows which
// engine serves it, which this server's settings decide.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { ToolsInfo } from '../../contract/tool-responses';
import { escapeMarkup } from '../markup/escape-markup';
import { ssrDirOf, ssrEntryOf } from './ssr-build';

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** The SSR build's entry (a type only: the module itself is the build's, loaded at run time). */
type Entry = typeof import('../../web/entry-prerender');

export type PrerenderedPage = { html: Buffer; br: Buffer; gzip: Buffer };

/** The session cookie (better-auth with our prefix; `__Secure-` over https): a layout hint only. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?pp\.session_token=[^;]/;

export const hasSessionCookie = (cookieHeader: string | undefined) => SESSION_COOKIE.test(cookieHeader ?? '');

const ROOT_ELEMENT = '<div id="root"></div>';
/** index.html's title, replaced by the page's own (a tab, a bookmark, a search result say which page). */
const TITLE_ELEMENT = /<title>[^<]*<\/title>/;

export function prerenderedPages(options: {
  distDir: string;
  tools: () => ToolsInfo;
  onError: (error: unknown, page: string) => void;
}) {
  const indexFile = path.join(options.distDir, 'index.html');
  let buildStamp = '';
  let template = '';
  let entry: Promise<Entry | null> = Promise.resolve(null);
  let pages = new Map<string, Promise<PrerenderedPage | null>>();
  // The renderer keeps the hint and the tools in module state: one render at a time.
  let queue: Promise<unknown> = Promise.resolve();

  /** A rebuild while the server runs (index.html rewritten) starts over with the new build. */
  function current(): Promise<Entry | null> {
    const stamp = existsSync(indexFile) ? String(statSync(indexFile).mtimeMs) : '';
    if (stamp !== buildStamp) {
      buildStamp = stamp;
      template = stamp ? readFileSync(indexFile, 'utf8') : '';
      pages = new Map();
      const file = stamp ? ssrEntryOf(ssrDirOf(options.distDir)) : null;
      entry = file
        ? import(pathToFileURL(file).href).then(
            (module: Entry) => module,
            (error: unknown) => {
              options.onError(error, '(the SSR build)');
              return null;
            },
          )
        : Promise.resolve(null);
    }
    return entry;
  }

  async function render(entryModule: Entry, page: string, signedIn: boolean): Promise<PrerenderedPage | null> {
    const tools = options.tools();
    const rendered = await entryModule.renderPage(page, { signedIn, tools });
    if (rendered === null) return null;
    if (!template.includes(ROOT_ELEMENT)) return null;
    const root = `<div id="root" data-prerendered data-signed-in="${signedIn}" data-tools="${escapeMarkup(JSON.stringify(tools))}">`;
    const html = Buffer.from(
      template
        .replace(TITLE_ELEMENT, () => `<title>${escapeMarkup(rendered.title)}</title>`)
        .replace(ROOT_ELEMENT, () => `${root}${rendered.html}</div>`),
    );
    return { html, ...(await compressed(html)) };
  }

  /**
   * The page's brotli and gzip twins. Kept beside the SSR build by the page's hash, so that the
   * servers started on one build (a restart, cluster workers, a rolling deploy) compress each page
   * once: brotli at quality 11 took about 1 CPU-s a start over the pages. Compressed on libuv's
   * threads, not the one that answers requests. An unwritable build folder only loses the reuse.
   */
  async function compressed(html: Buffer): Promise<{ br: Buffer; gzip: Buffer }> {
    const cacheDir = path.join(ssrDirOf(options.distDir), 'compressed-pages');
    const file = path.join(cacheDir, createHash('sha256').update(html).digest('hex'));
    try {
      const [br, gzipped] = await Promise.all([readFile(`${file}.br`), readFile(`${file}.gz`)]);
      return { br, gzip: gzipped };
    } catch {
      // not compressed yet on this build
    }
    const [br, gzipped] = await Promise.all([
      brotliAsync(html, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: html.length },
      }),
      gzipAsync(html, { level: 9 }),
    ]);
    // Each file written whole under another name, then renamed: a reader never sees half of one.
    const keep = async (suffix: string, data: Buffer) => {
      const partial = `${file}.${process.pid}.partial${suffix}`;
      await writeFile(partial, data);
      await rename(partial, `${file}${suffix}`);
    };
    await mkdir(cacheDir, { recursive: true })
      .then(() => Promise.all([keep('.br', br), keep('.gz', gzipped)]))
      .catch(() => undefined);
    return { br, gzip: gzipped };
  }

  /** The prerendered page at `page` for a visitor or (`signedIn`) a probably signed-in user; null: the shell. */
  async function pageFor(page: string, signedIn: boolean): Promise<PrerenderedPage | null> {
    const entryModule = await current();
    if (!entryModule?.PRERENDERED_PATHS.includes(page)) return null;
    const key = `${signedIn}:${page}`;
    let rendered = pages.get(key);
    if (!rendered) {
      const map = pages;
      rendered = queue.then(() =>
        render(entryModule, page, signedIn).catch((error: unknown) => {
          options.onError(error, page);
          map.delete(key); // try again on the next request
          return null;
        }),
      );
      queue = rendered;
      map.set(key, rendered);
    }
    return rendered;
  }

  /** Renders every page for a visitor ahead of the first requests (in the background). */
  async function warm(): Promise<void> {
    const entryModule = await current();
    for (const page of entryModule?.PRERENDERED_PATHS ?? []) await pageFor(page, false);
  }

  return { pageFor, warm };
}
