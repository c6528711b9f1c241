import { useEffect } from 'react';

export const APP_NAME = 'Picture Palette';

/** While a page is rendered to HTML on the server (entry-prerender.tsx): where its title goes. */
let prerenderTitle: { value: string } | null = null;

/**
 * Starts collecting the title of the page about to be rendered outside a browser; the page's
 * useDocumentTitle fills it in during render (effects do not run there). Calls must not overlap.
 */
export function collectDocumentTitle(): { value: string } {
  prerenderTitle = { value: APP_NAME };
  return prerenderTitle;
}

/** Sets the tab title: "Text to Pic · Picture Palette", or the bare app name for null. */
export function useDocumentTitle(page: string | null): void {
  const title = page ? `${page} · ${APP_NAME}` : APP_NAME;
  if (prerenderTitle) prerenderTitle.value = title;
  useEffect(() => {
    document.title = title;
  }, [title]);
}
