import { type ComponentType, Suspense, use, useEffect } from 'react';
import { useHydrated } from './use-hydrated';

// Parts of a prerendered page whose code the first paint does not need (issue 18): the landing
// page's sections below the fold. The page's HTML already shows them; while their chunk is still
// on its way, hydration leaves that HTML as it is (a dehydrated Suspense boundary), and the chunk
// is fetched only once the root has hydrated and the browser is idle, so it competes with neither
// the first paint nor the scripts the page needs first. The page counts as live when the parts
// have hydrated too. Anywhere else (the prerender on the server, a page reached by a link, tests)
// a route loader preloads the part with its page, so it renders at once with the rest.
// entry-prerender.tsx keeps every boundary in place in the HTML (no streamed-in segments).

/** True between a prerendered page's first script and the end of its hydration (main.tsx, Root). */
let hydratingPrerenderedPage = false;
/** Parts that a hydration left waiting for their chunk, by their names. */
const waiting = new Set<string>();
let rootHydrated = false;
let pageHydrated: Promise<void> = Promise.resolve();
let resolvePageHydrated = () => {};

export function startHydratingPrerenderedPage(): void {
  hydratingPrerenderedPage = true;
  rootHydrated = false;
  pageHydrated = new Promise((resolve) => {
    resolvePageHydrated = resolve;
  });
}

/** Called once the page's root has hydrated (Root's first effect). */
export function endHydration(): void {
  hydratingPrerenderedPage = false;
  rootHydrated = true;
  if (waiting.size === 0) resolvePageHydrated();
}

/**
 * Resolves once a prerendered page has hydrated with every deferred part (at once when none is
 * hydrating): only then is the whole page clickable (Root marks `<html data-app="live">`). State
 * above a deferred part must not change before: React would throw away the HTML of a part still
 * waiting for its chunk and show nothing there until the chunk comes (the session's first check
 * waits for it, features/auth/AuthProvider.tsx).
 */
export const whenPageHydrated = (): Promise<void> => pageHydrated;

function settled(name: string) {
  if (waiting.delete(name) && waiting.size === 0 && rootHydrated) resolvePageHydrated();
}

/** After the page's first paint and hydration, when the browser has a moment (at most 2 s later). */
function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 2000 });
    else setTimeout(resolve, 50);
  });
}

export type DeferredPart<P extends object> = ComponentType<P> & {
  /** Loads the part's chunk now; a route loader awaits it unless a prerendered page is hydrating. */
  preload: () => Promise<void>;
  /** For a route loader: `preload`, except while a prerendered page hydrates (then it resolves at once). */
  preloadWithPage: () => Promise<void>;
};

/** A part of a page in its own chunk, loaded as described above. `name` tells parts apart. */
export function deferredPart<P extends object>(name: string, load: () => Promise<ComponentType<P>>): DeferredPart<P> {
  let Loaded: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  let loadingWhenIdle: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      Loaded = component;
    }));

  function Part(props: P) {
    const hydrated = useHydrated();
    useEffect(() => settled(name), []);
    if (!Loaded) {
      if (hydrated) use(preload());
      else {
        // Settled when it has hydrated (the effect above), or when its chunk fails to load (the
        // route's error screen shows then).
        loadingWhenIdle ??= whenIdle()
          .then(preload)
          .catch((error: unknown) => {
            settled(name);
            throw error;
          });
        use(loadingWhenIdle);
      }
    }
    // `use` returns only once the chunk is here, and by then Loaded is set.
    const Component = Loaded as ComponentType<P>;
    return <Component {...props} />;
  }

  function Deferred(props: P) {
    // Counted here, outside the boundary: React hydrates the root, and runs its effects, before it
    // comes back to hydrate what is inside a Suspense boundary.
    if (hydratingPrerenderedPage && !Loaded) waiting.add(name);
    // Left before its chunk came (a link followed at once): nothing is waiting for it any more.
    useEffect(() => () => settled(name), []);
    return (
      <Suspense fallback={null}>
        <Part {...props} />
      </Suspense>
    );
  }
  return Object.assign(Deferred, {
    preload,
    preloadWithPage: () => (hydratingPrerenderedPage ? Promise.resolve() : preload()),
  });
}
