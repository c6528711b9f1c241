// Where the SSR build of the web app lives (decision 021): written by scripts/prerender.ts, read by
// prerendered-pages.ts. Beside the app's folder, not in it: the server serves dist/web as files.
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** The SSR build of the app built into `outDir` (dist/web: dist/web-ssr). */
export const ssrDirOf = (outDir: string) => `${outDir}-ssr`;

/**
 * The entry's name carries its hash: a server that sees a new build imports the new file (an ES
 * module is loaded once per URL, and a query would load a second copy beside the chunks' one).
 */
export function ssrEntryOf(ssrDir: string): string | null {
  const name = existsSync(ssrDir) ? readdirSync(ssrDir).find((file) => /^entry-prerender-.*\.js$/.test(file)) : null;
  return name ? path.join(ssrDir, name) : null;
}
