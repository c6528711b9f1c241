import { useEffect } from 'react';

export const APP_NAME = 'Picture Palette';

/** Sets the tab title: "Text to Pic · Picture Palette", or the bare app name for null. */
export function useDocumentTitle(page: string | null): void {
  useEffect(() => {
    document.title = page ? `${page} · ${APP_NAME}` : APP_NAME;
  }, [page]);
}
