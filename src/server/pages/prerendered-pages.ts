// Prerendered pages (decision 021): the app's pages as HTML inside index.html, so that a first visit
// paints the page before any script has run; the browser hydrates it (src/web/main.tsx). Rendered by
// the SSR build of the app (dist/web-ssr, made by `npm run build`: scripts/prerender.ts), once per
// page and variant for the life of a build, and kept with its brotli and gzip twins, as the build
// keeps those of its files. Rendered here rather than in the build because a tool page shows which
// engine serves it, which this server's settings decide.
import { existsSync, readFileSync, statSync } from 'node:fs';
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
    // On libuv's threads, not this one: brotli at quality 11 takes tens of ms a page, and the warm-up
    // at start compressed every page on the thread that answers requests (0.4 s of it a start).
    const [br, gzipped] = await Promise.all([
      brotliAsync(html, {
        params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: html.length },
      }),
      gzipAsync(html, { level: 9 }),
    ]);
    return { html, br, gzip: gzipped };
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
