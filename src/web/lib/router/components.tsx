// The router's React side: the provider, the outlet, links and the hooks, with React Router's names.
import {
  type AnchorHTMLAttributes,
  Component,
  createContext,
  type MouseEvent,
  type ReactNode,
  useCallback,
  useContext,
  useLayoutEffect,
  useMemo,
  useSyncExternalStore,
} from 'react';
import { tryDecodeURIComponent } from '../../../contract/url-encoding';
import { hrefOf, type Location, type NavigateOptions, parseTo, type Router, type RouterState } from './router';

const RouterContext = createContext<Router | null>(null);
const StateContext = createContext<RouterState | null>(null);
/** The matches below the route being rendered, and the error its boundary shows. */
const OutletContext = createContext<{ depth: number; error: unknown }>({ depth: 0, error: null });

function useRouter(): Router {
  const router = useContext(RouterContext);
  if (!router) throw new Error('used outside <RouterProvider>');
  return router;
}

function useRouterState(): RouterState {
  const state = useContext(StateContext);
  if (!state) throw new Error('used outside <RouterProvider>');
  return state;
}

/** Catches a render error below a route that has an ErrorBoundary, and shows that instead. */
class RouteErrorBoundary extends Component<
  { fallback: ReactNode; location: Location; children: ReactNode; depth: number },
  { error: unknown; location: Location }
> {
  override state = { error: null as unknown, location: this.props.location };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  // Moving to another location clears the error, as React Router's boundary does.
  static getDerivedStateFromProps(props: { location: Location }, state: { location: Location }) {
    return props.location === state.location ? null : { error: null, location: props.location };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <OutletContext.Provider value={{ depth: this.props.depth, error: this.state.error }}>
        {this.props.fallback}
      </OutletContext.Provider>
    );
  }
}

/** Renders the matched route at `depth` and, through <Outlet />, those below it. */
function RouteAt({ depth }: { depth: number }) {
  const state = useRouterState();
  const match = state.matches[depth];
  if (!match) return null;
  const { route } = match;
  const boundaryDepth = state.error ? state.matches.findLastIndex((m) => m.route.ErrorBoundary) : -1;
  if (state.error && boundaryDepth === depth && route.ErrorBoundary) {
    return (
      <OutletContext.Provider value={{ depth, error: state.error }}>
        <route.ErrorBoundary />
      </OutletContext.Provider>
    );
  }
  const Page = route.Component;
  const content = (
    <OutletContext.Provider value={{ depth: depth + 1, error: null }}>
      {Page ? <Page /> : <RouteAt depth={depth + 1} />}
    </OutletContext.Provider>
  );
  if (!route.ErrorBoundary) return content;
  return (
    <RouteErrorBoundary fallback={<route.ErrorBoundary />} location={state.location} depth={depth}>
      {content}
    </RouteErrorBoundary>
  );
}

export function RouterProvider({ router }: { router: Router }) {
  const state = useSyncExternalStore(
    router.subscribe,
    () => router.state,
    () => router.state,
  );
  const Fallback = state.matches[0]?.route.HydrateFallback;
  return (
    <RouterContext.Provider value={router}>
      <StateContext.Provider value={state}>
        {state.initialized ? <RouteAt depth={0} /> : Fallback ? <Fallback /> : null}
      </StateContext.Provider>
    </RouterContext.Provider>
  );
}

export function Outlet() {
  const { depth } = useContext(OutletContext);
  return <RouteAt depth={depth} />;
}

export const useLocation = (): Location => useRouterState().location;
export const useNavigation = () => useRouterState().navigation;
export const useRouteError = (): unknown => useContext(OutletContext).error;

export function useParams(): Record<string, string | undefined> {
  return useRouterState().matches.at(-1)?.params ?? {};
}

export function useNavigate(): (to: string | number, options?: NavigateOptions) => void {
  const router = useRouter();
  return (to, options) => void router.navigate(to, options);
}

type SetParams = (
  next: URLSearchParams | ((current: URLSearchParams) => URLSearchParams),
  options?: NavigateOptions,
) => void;

export function useSearchParams(): [URLSearchParams, SetParams] {
  const router = useRouter();
  const { search } = useLocation();
  const params = useMemo(() => new URLSearchParams(search), [search]);
  // Stable across renders (it reads the location when called), so effects may depend on it.
  const setParams: SetParams = useCallback(
    (next, options) => {
      const value = typeof next === 'function' ? next(new URLSearchParams(router.state.location.search)) : next;
      const query = value.toString();
      void router.navigate(`${router.state.location.pathname}${query ? `?${query}` : ''}`, options);
    },
    [router],
  );
  return [params, setParams];
}

type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  to: string;
  state?: unknown;
  replace?: boolean;
};

/** A plain link that the router follows without reloading; modified clicks keep the browser's way. */
export function Link({ to, state, replace, onClick, ...rest }: LinkProps) {
  const router = useRouter();
  const href = hrefOf(parseTo(to, useLocation()));
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || rest.target) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    void router.navigate(to, { state, replace });
  };
  return <a {...rest} href={href} onClick={follow} />;
}

/** A menu link marked `aria-current="page"` on its own page (exact match, like React Router's `end`). */
export function NavLink({ className, ...props }: LinkProps & { end?: boolean }) {
  const { end: _exact, ...rest } = props;
  const active = useLocation().pathname === parseTo(props.to, useLocation()).pathname;
  return (
    <Link
      {...rest}
      className={active ? `${className ?? ''} active`.trim() : className}
      aria-current={active ? 'page' : undefined}
    />
  );
}

const SCROLL_KEY = 'pp-scroll-positions';

function savedPositions(): Record<string, number> {
  try {
    return JSON.parse(sessionStorage.getItem(SCROLL_KEY) ?? '{}') as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * Back and forward return to where the page was scrolled; a new page starts at its top, or at the
 * element its #hash names.
 */
export function ScrollRestoration() {
  const { location, action } = useRouterState();
  useLayoutEffect(() => {
    window.history.scrollRestoration = 'manual';
    const remember = () => {
      const positions = savedPositions();
      positions[location.key] = window.scrollY;
      sessionStorage.setItem(SCROLL_KEY, JSON.stringify(positions));
    };
    const saved = savedPositions()[location.key];
    if (action === 'POP' && saved !== undefined) window.scrollTo(0, saved);
    else if (location.hash) {
      // A hash with broken percent-encoding (`#%`) names no element.
      const id = tryDecodeURIComponent(location.hash.slice(1));
      if (id !== null) document.getElementById(id)?.scrollIntoView();
    } else if (action !== 'POP') window.scrollTo(0, 0);
    window.addEventListener('pagehide', remember);
    return () => {
      window.removeEventListener('pagehide', remember);
      remember();
    };
  }, [location, action]);
  return null;
}
