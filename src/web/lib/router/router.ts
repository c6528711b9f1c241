// Our own small router (issue 18): React Router's data router was about 30 kB gzipped of the landing
// page's JavaScript, and the app uses a sliver of it. This keeps React Router's names and behaviour
// for what the app does use: nested routes with lazy pages, an error boundary per route, pending
// navigation while the next page's chunk loads, browser and memory history.
import type { ComponentType } from 'react';
import { isWellEncoded, tryDecodeURIComponent } from '../../../contract/url-encoding';

export type Location = { pathname: string; search: string; hash: string; state: unknown; key: string };

type LoadedRoute = { Component: ComponentType };

export type RouteObject = {
  id?: string;
  path?: string;
  index?: boolean;
  Component?: ComponentType;
  ErrorBoundary?: ComponentType;
  /** Shown instead of the tree until the first location's pages have loaded. */
  HydrateFallback?: ComponentType;
  lazy?: () => Promise<LoadedRoute>;
  children?: RouteObject[];
};

export type RouteMatch = { route: RouteObject; params: Record<string, string> };

/** What a route's error boundary gets for a path that matches no route (React Router's shape). */
export class ErrorResponse {
  constructor(
    readonly status: number,
    readonly statusText: string,
  ) {}
}

export const isRouteErrorResponse = (error: unknown): error is ErrorResponse => error instanceof ErrorResponse;

export type NavigateOptions = { replace?: boolean; state?: unknown };

export type RouterState = {
  location: Location;
  matches: RouteMatch[];
  /** An error from loading a page (or no route at all): shown by the nearest error boundary. */
  error: unknown;
  /** False until the first location's pages have loaded. */
  initialized: boolean;
  navigation: { state: 'idle' | 'loading' };
  /** How the location was reached: 'POP' for back/forward and the first location. */
  action: 'POP' | 'PUSH' | 'REPLACE';
};

/** Where locations come from: the browser's history, or a list in memory (tests). */
export type History = {
  location(): Location;
  push(location: Location, replace: boolean): void;
  /** Calls back on back/forward; returns the unsubscribe. */
  listen(onPop: (location: Location) => void): () => void;
};

const newKey = () => Math.random().toString(36).slice(2, 10);

/** Resolves `to` (a path, possibly with ?search and #hash) against the current path. */
export function parseTo(to: string, from: Location, state: unknown = null): Location {
  const url = new URL(to, `http://local${from.pathname}${from.search}`);
  return { pathname: url.pathname, search: url.search, hash: url.hash, state, key: newKey() };
}

export const hrefOf = (location: Pick<Location, 'pathname' | 'search' | 'hash'>) =>
  `${location.pathname}${location.search}${location.hash}`;

export function browserHistory(): History {
  const read = (): Location => {
    const entry = (window.history.state ?? {}) as { key?: string; usr?: unknown };
    const { pathname, search, hash } = window.location;
    return { pathname, search, hash, state: entry.usr ?? null, key: entry.key ?? 'default' };
  };
  return {
    location: read,
    push(location, replace) {
      const entry = { key: location.key, usr: location.state };
      if (replace) window.history.replaceState(entry, '', hrefOf(location));
      else window.history.pushState(entry, '', hrefOf(location));
    },
    listen(onPop) {
      const handler = () => onPop(read());
      window.addEventListener('popstate', handler);
      return () => window.removeEventListener('popstate', handler);
    },
  };
}

export function memoryHistory(initialEntries: string[] = ['/']): History {
  const start: Location = { pathname: '/', search: '', hash: '', state: null, key: 'default' };
  const entries = initialEntries.map((entry) => parseTo(entry, start));
  let index = entries.length - 1;
  return {
    location: () => entries[index] ?? start,
    push(location, replace) {
      if (replace) entries[index] = location;
      else {
        entries.splice(index + 1, entries.length, location);
        index = entries.length - 1;
      }
    },
    listen: () => () => {},
  };
}

const segmentsOf = (path: string) => path.split('/').filter(Boolean);

/** The routes from the root to the one that renders `pathname`, or null when none does. */
export function matchRoutes(routes: RouteObject[], pathname: string, consumed = 0): RouteMatch[] | null {
  const segments = segmentsOf(pathname);
  for (const route of routes) {
    const params: Record<string, string> = {};
    let depth = consumed;
    if (route.path !== undefined) {
      // Paths are absolute (React Router's convention for ours): compare from the start.
      const pattern = segmentsOf(route.path);
      const isLeaf = !route.children?.length;
      if (pattern.length < consumed || pattern.length > segments.length) continue;
      if (isLeaf && pattern.length !== segments.length) continue;
      const fits = pattern.every((part, i) => {
        const actual = segments[i] as string;
        if (part.startsWith(':')) {
          // Broken percent-encoding (`/shared/%`) fits no parameter: the path matches no route.
          const value = tryDecodeURIComponent(actual);
          if (value === null) return false;
          params[part.slice(1)] = value;
          return true;
        }
        return part === actual;
      });
      if (!fits) continue;
      depth = pattern.length;
    }
    if (route.index) {
      if (depth === segments.length) return [{ route, params }];
      continue;
    }
    if (route.children?.length) {
      const rest = matchRoutes(route.children, pathname, depth);
      if (rest) return [{ route, params }, ...rest.map((m) => ({ ...m, params: { ...params, ...m.params } }))];
      continue;
    }
    if (route.path !== undefined && depth === segments.length) return [{ route, params }];
  }
  return null;
}

/**
 * The routes that render `location`, or null: none does, or its path or query has broken
 * percent-encoding (`/tools/%zz`, `?token=%`), which the app answers with its not-found screen
 * rather than reading a half-decoded address (issue 37).
 */
export function matchLocation(routes: RouteObject[], location: Pick<Location, 'pathname' | 'search'>) {
  if (!isWellEncoded(location.pathname) || !isWellEncoded(location.search)) return null;
  return matchRoutes(routes, location.pathname);
}

export type Router = {
  readonly state: RouterState;
  subscribe(listener: (state: RouterState) => void): () => void;
  navigate(to: string | number, options?: NavigateOptions): Promise<void>;
  /** Resolves once the first location's pages have loaded (before hydrating prerendered HTML). */
  ready: Promise<void>;
  dispose(): void;
};

// A route's lazy page is loaded once, like React Router does; a failed load is tried again next time.
const loaded = new WeakMap<RouteObject, Promise<LoadedRoute>>();

function loadRoute(route: RouteObject): Promise<void> {
  if (!route.lazy || route.Component) return Promise.resolve();
  let loading = loaded.get(route);
  if (!loading) {
    loading = route.lazy();
    loaded.set(route, loading);
    loading.catch(() => loaded.delete(route));
  }
  return loading.then(({ Component }) => {
    route.Component = Component;
  });
}

export function createRouter(routes: RouteObject[], history: History): Router {
  const listeners = new Set<(state: RouterState) => void>();
  const first = history.location();
  // The first match is known at once, before any page has loaded: the provider shows the root's
  // HydrateFallback (the loading logo) while the first page's chunk arrives, as React Router did.
  let state: RouterState = {
    location: first,
    matches: matchLocation(routes, first) ?? [{ route: routes[0] as RouteObject, params: {} }],
    error: null,
    initialized: false,
    navigation: { state: 'loading' },
    action: 'POP',
  };
  let current = 0;
  const set = (next: Partial<RouterState>) => {
    state = { ...state, ...next };
    for (const listener of listeners) listener(state);
  };

  /** Loads the location's pages, then shows it; a newer navigation wins over an older one. */
  async function go(location: Location, action: RouterState['action']): Promise<void> {
    const id = ++current;
    const matches = matchLocation(routes, location);
    if (!matches) {
      set({
        location,
        action,
        matches: [{ route: routes[0] as RouteObject, params: {} }],
        error: new ErrorResponse(404, 'Not Found'),
        initialized: true,
        navigation: { state: 'idle' },
      });
      return;
    }
    const ready = matches.every(({ route }) => !route.lazy || route.Component);
    // Pages already loaded show at once (a tree without lazy routes renders on its first render).
    if (ready) return set({ location, action, matches, error: null, initialized: true, navigation: { state: 'idle' } });
    set({ navigation: { state: 'loading' } });
    const error = await Promise.all(matches.map(({ route }) => loadRoute(route))).then(
      () => null,
      (reason: unknown) => reason ?? new Error('Unknown error'),
    );
    if (id !== current) return;
    set({ location, action, matches, error, initialized: true, navigation: { state: 'idle' } });
  }

  const unlisten = history.listen((location) => void go(location, 'POP'));
  const ready = go(first, 'POP');

  return {
    get state() {
      return state;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    navigate(to, options = {}) {
      if (typeof to === 'number') {
        window.history.go(to);
        return Promise.resolve();
      }
      const location = parseTo(to, state.location, options.state ?? null);
      history.push(location, options.replace ?? false);
      return go(location, options.replace ? 'REPLACE' : 'PUSH');
    },
    ready,
    dispose: unlisten,
  };
}

export const createBrowserRouter = (routes: RouteObject[]) => createRouter(routes, browserHistory());

export const createMemoryRouter = (routes: RouteObject[], options: { initialEntries?: string[] } = {}) =>
  createRouter(routes, memoryHistory(options.initialEntries));
