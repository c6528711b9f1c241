// The app rendered to HTML outside a browser (decision 021): built by Vite's SSR build into
// dist/web-ssr (scripts/prerender.ts) and run by the server (src/server/pages/prerendered-pages.ts),
// which sends each page's HTML inside index.html so that it paints before any script has run; the
// browser then hydrates it (main.tsx). What renders here is a first render in a browser that has not
// heard from the server yet: the session loading (signed out, or the room of the signed-in state when
// the request carried a session cookie), the tools' providers as this server has them.
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { ALL_ROUTES, ROUTES } from '../contract/routes';
import type { ToolsInfo } from '../contract/tool-responses';
import { routes } from './app/routes';
import { LEGAL_ROUTES } from './lib/legal-routes';
import { createMemoryRouter, RouterProvider } from './lib/router';
import { setPrerenderedHint } from './lib/session/signed-in-hint';
import { primeToolsInfo } from './lib/tools-info';
import { collectDocumentTitle } from './lib/use-document-title';

/**
 * The pages served prerendered: every route of the menu, the legal pages and the API's guide. Not /reset-password
 * (its link's token decides what shows) nor /shared/:token (a page per share): they get the shell.
 */
export const PRERENDERED_PATHS: readonly string[] = [
  ...ALL_ROUTES,
  LEGAL_ROUTES.terms,
  LEGAL_ROUTES.privacy,
  ROUTES.developers,
];

export type PrerenderOptions = {
  /** The server's guess that the visitor is signed in (a session cookie came with the request). */
  signedIn: boolean;
  /** What GET /api/tools answers on this server. */
  tools: ToolsInfo;
};

/** A page as HTML: the body of `#root` and the document's title ("Text to Pic · Picture Palette"). */
export type RenderedPage = { html: string; title: string };

/**
 * The page at `path`, or null when the path has no page (or its page failed to load).
 * Not re-entrant: the hint, the tools and the title are module state, so calls must not overlap.
 */
export async function renderPage(path: string, { signedIn, tools }: PrerenderOptions): Promise<RenderedPage | null> {
  primeToolsInfo(tools);
  setPrerenderedHint(signedIn);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  await router.ready;
  if (router.state.error) return null;
  const title = collectDocumentTitle();
  const { prelude } = await prerender(
    <StrictMode>
      <RouterProvider router={router} />
    </StrictMode>,
    // One document, every boundary in place: React would otherwise move a large Suspense boundary
    // (the landing page below the fold) to the end with an inline script, which our CSP refuses.
    { progressiveChunkSize: Number.POSITIVE_INFINITY },
  );
  return { html: await new Response(prelude).text(), title: title.value };
}
