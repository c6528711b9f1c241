import { useSyncExternalStore } from 'react';

const unchanging = () => () => {};

/**
 * False on the server and while a prerendered page hydrates, true from then on (and on any render in
 * the browser that is not a hydration): for what a page should add only in the browser.
 */
export const useHydrated = (): boolean =>
  useSyncExternalStore(
    unchanging,
    () => true,
    () => false,
  );
