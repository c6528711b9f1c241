import { act, fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  Link,
  Outlet,
  RouterProvider,
  ScrollRestoration,
  useNavigation,
  useParams,
  useRouteError,
  useSearchParams,
} from './components';
import { createBrowserRouter, createMemoryRouter, isRouteErrorResponse, matchRoutes, type RouteObject } from './router';

const Page = (name: string) =>
  function Named() {
    return <h1>{name}</h1>;
  };

function Layout() {
  return (
    <section aria-label="layout">
      <Outlet />
    </section>
  );
}

const tree: RouteObject[] = [
  {
    path: '/',
    Component: Outlet,
    children: [
      { index: true, Component: Page('home') },
      { path: '/shared/:token', Component: Page('shared') },
      { Component: Layout, children: [{ path: '/tokens', Component: Page('tokens') }] },
    ],
  },
];

const names = (routes: RouteObject[], path: string) =>
  matchRoutes(routes, path)?.map(({ route, params }) => [route.path ?? (route.index ? 'index' : 'layout'), params]);

describe('matchRoutes', () => {
  it('matches the index, a parameter, and a path inside a layout without a path', () => {
    expect(names(tree, '/')).toEqual([
      ['/', {}],
      ['index', {}],
    ]);
    expect(names(tree, '/shared/a%20b')).toEqual([
      ['/', {}],
      ['/shared/:token', { token: 'a b' }],
    ]);
    expect(names(tree, '/tokens/')).toEqual([
      ['/', {}],
      ['layout', {}],
      ['/tokens', {}],
    ]);
  });

  it('matches nothing for an unknown path or a longer one', () => {
    expect(matchRoutes(tree, '/nope')).toBeNull();
    expect(matchRoutes(tree, '/tokens/more')).toBeNull();
    expect(matchRoutes(tree, '/shared')).toBeNull();
  });

  it('matches nothing, and throws nothing, for a parameter with broken percent-encoding (issue 37)', () => {
    for (const token of ['%', '%zz', '%E0%A4%A', 'ab%']) expect(matchRoutes(tree, `/shared/${token}`)).toBeNull();
    expect(names(tree, '/shared/100%25')).toEqual([
      ['/', {}],
      ['/shared/:token', { token: '100%' }],
    ]);
  });
});

describe('an address with broken percent-encoding (issue 37)', () => {
  function NotFound() {
    const error = useRouteError();
    return <h1>{isRouteErrorResponse(error) ? `not found ${error.status}` : 'other error'}</h1>;
  }
  function Tokens() {
    return <h1>{`tokens ${useSearchParams()[0].get('x') ?? ''}`}</h1>;
  }
  const app: RouteObject[] = [
    {
      path: '/',
      Component: Outlet,
      ErrorBoundary: NotFound,
      children: [
        { index: true, Component: Page('home') },
        { path: '/shared/:token', Component: Page('shared') },
        { path: '/tokens', Component: Tokens },
      ],
    },
  ];

  it.each(['/shared/%', '/shared/%E0%A4%A', '/tools/%zz', '/%', '/tokens?x=%', '/tokens?x=%E0%A4%A'])(
    '%s shows the not-found screen',
    async (address) => {
      render(<RouterProvider router={createMemoryRouter(app, { initialEntries: [address] })} />);
      expect((await screen.findByRole('heading')).textContent).toBe('not found 404');
    },
  );

  it('is well-encoded with %25: the page shows the decoded value', async () => {
    render(<RouterProvider router={createMemoryRouter(app, { initialEntries: ['/tokens?x=100%25'] })} />);
    expect((await screen.findByRole('heading')).textContent).toBe('tokens 100%');
  });

  it('reached by a link, shows the not-found screen and home is a click away', async () => {
    function Home() {
      return <Link to="/shared/%">broken</Link>;
    }
    const router = createMemoryRouter([{ ...app[0], children: [{ index: true, Component: Home }] }]);
    render(<RouterProvider router={router} />);
    fireEvent.click(await screen.findByRole('link', { name: 'broken' }));
    expect((await screen.findByRole('heading')).textContent).toBe('not found 404');
    await act(() => router.navigate('/'));
    expect(screen.getByRole('link', { name: 'broken' })).toBeTruthy();
  });

  it("is the browser's first location: the browser router starts and shows the not-found screen", async () => {
    window.history.replaceState(null, '', '/shared/%');
    try {
      const router = createBrowserRouter(app);
      render(<RouterProvider router={router} />);
      expect((await screen.findByRole('heading')).textContent).toBe('not found 404');
      router.dispose();
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });

  it('a hash with broken percent-encoding scrolls nowhere and throws nothing', async () => {
    function Home() {
      return (
        <>
          <ScrollRestoration />
          <h1>home</h1>
        </>
      );
    }
    const router = createMemoryRouter([{ path: '/', Component: Home }]);
    render(<RouterProvider router={router} />);
    await screen.findByRole('heading', { name: 'home' });
    await act(() => router.navigate('/#%E0%A4%A'));
    expect(router.state.location.hash).toBe('#%E0%A4%A');
    expect(screen.getByRole('heading').textContent).toBe('home');
  });
});

describe('navigation', () => {
  it('keeps the current page while the next one loads, and the latest navigation wins', async () => {
    let release: (() => void) | undefined;
    const slow: RouteObject = {
      path: '/slow',
      lazy: () => new Promise((resolve) => (release = () => resolve({ Component: Page('slow') }))),
    };
    function Shell() {
      return (
        <>
          <p>{useNavigation().state}</p>
          <Outlet />
        </>
      );
    }
    const router = createMemoryRouter([
      { path: '/', Component: Shell, children: [...(tree[0]?.children ?? []), slow] },
    ]);
    render(<RouterProvider router={router} />);
    await screen.findByRole('heading', { name: 'home' });

    let toSlow: Promise<void> = Promise.resolve();
    act(() => {
      toSlow = router.navigate('/slow');
    });
    expect(screen.getByText('loading')).toBeTruthy();
    expect(screen.getByRole('heading').textContent).toBe('home');
    await act(() => router.navigate('/tokens'));
    release?.();
    await act(() => toSlow);
    expect(screen.getByRole('heading').textContent).toBe('tokens');
    expect(router.state.location.pathname).toBe('/tokens');
    expect(screen.getByText('idle')).toBeTruthy();
  });

  it("shows the root's HydrateFallback until the first page's chunk arrives", async () => {
    let release: (() => void) | undefined;
    const router = createMemoryRouter(
      [
        {
          path: '/',
          Component: Outlet,
          HydrateFallback: () => <p role="status">loading logo</p>,
          children: [
            {
              index: true,
              lazy: () => new Promise((resolve) => (release = () => resolve({ Component: Page('home') }))),
            },
          ],
        },
      ],
      { initialEntries: ['/'] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('status').textContent).toBe('loading logo');
    release?.();
    await act(() => router.ready);
    expect(screen.getByRole('heading').textContent).toBe('home');
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('follows a plain click on a link, not a modified one, and reads params and the query', async () => {
    function Shared() {
      const [query, setQuery] = useSearchParams();
      return (
        <>
          <h1>{`shared ${useParams().token} ${query.get('x') ?? ''}`}</h1>
          <button type="button" onClick={() => setQuery(new URLSearchParams({ x: '2' }), { replace: true })}>
            two
          </button>
        </>
      );
    }
    function Home() {
      return <Link to="/shared/abc?x=1">open</Link>;
    }
    const router = createMemoryRouter([
      {
        path: '/',
        Component: Outlet,
        children: [
          { index: true, Component: Home },
          { path: '/shared/:token', Component: Shared },
        ],
      },
    ]);
    render(<RouterProvider router={router} />);
    const link = await screen.findByRole('link', { name: 'open' });
    expect(link.getAttribute('href')).toBe('/shared/abc?x=1');
    fireEvent.click(link, { ctrlKey: true });
    expect(router.state.location.pathname).toBe('/');
    fireEvent.click(link);
    expect((await screen.findByRole('heading')).textContent).toBe('shared abc 1');
    fireEvent.click(screen.getByRole('button', { name: 'two' }));
    expect((await screen.findByRole('heading')).textContent).toBe('shared abc 2');
    expect(router.state.location.search).toBe('?x=2');
  });
});
