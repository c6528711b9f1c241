import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { menuOf } from '../../contract/routes';
import { TOOLS, type ToolDefinition, type ToolId } from '../../contract/tools';
import { WEB_TOOLS } from '../features/tools/registry';
import { ChunkLoadTimeoutError } from '../lib/lazy-with-timeout';
import type { RouteObject } from '../lib/router';
import { routes, routesFor } from './routes';
import { renderApp } from './test-utils';

function Boom(): never {
  throw new Error('Kaboom while rendering');
}

/** The app's routes with extra children under the root, to exercise the root's error screen. */
function routesWith(...extra: RouteObject[]): RouteObject[] {
  const [root] = routes;
  if (!root || root.index) throw new Error('no root layout route');
  return [{ ...root, children: [...(root.children ?? []), ...extra] }];
}

afterEach(() => vi.unstubAllGlobals());

describe('routes', () => {
  it.each([
    ['/', 'Every image tool you need, in one palette.'],
    ['/tokens', 'Tokens'],
    // Every tool's route, its title as the heading.
    ...TOOLS.map((tool): [string, string] => [tool.route, tool.title]),
    ['/creations', 'My Creations'],
    ['/user-settings', 'User Settings'],
    ['/reset-password?token=abc', 'Choose a new password'],
  ])('%s loads its page with the heading "%s"', async (path, heading) => {
    renderApp(path);
    const h1 = await screen.findByRole('heading', { level: 1 });
    expect(h1.textContent).toBe(heading);
  });

  it('sets the tab title per page', async () => {
    renderApp('/face-fixer');
    await screen.findByRole('heading', { level: 1, name: 'Fix a Face' });
    // Set by an effect after the page commits: on a busy machine a moment after the heading shows.
    await waitFor(() => expect(document.title).toBe('Fix a Face · Picture Palette'));
  });
});

describe('built from the tool list', () => {
  function SketchMakerPage() {
    return <h1>Sketch Maker</h1>;
  }
  /** An 11th tool: the contract's entry and its page. */
  const eleventh = {
    ...(TOOLS[0] as ToolDefinition),
    id: 'sketch-maker' as ToolId,
    title: 'Sketch Maker',
    menuLabel: 'Sketch Maker',
    route: '/sketch-maker',
    loadPage: async () => SketchMakerPage,
  } satisfies ToolDefinition & { loadPage: unknown };

  it('an 11th tool in the list gets its route and its menu item', async () => {
    const menu = menuOf([...TOOLS, eleventh]);
    expect(menu.map((item) => item.label)).toContain('Sketch Maker');
    expect(menu.find((item) => item.label === 'Sketch Maker')?.to).toBe('/sketch-maker');

    renderApp('/sketch-maker', routesFor([...WEB_TOOLS, eleventh]));
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Sketch Maker');
  });

  it('without it, its route is the fallback screen', async () => {
    renderApp('/sketch-maker');
    expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Unexpected Application Error!');
  });
});

describe('fallback error screen', () => {
  it('shows "Unexpected Application Error!" with a 404 detail and a way home for an unknown route', async () => {
    const { router } = renderApp('/no-such-page');
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe('Unexpected Application Error!');
    expect(screen.getByTestId('error-detail').textContent).toBe('404 Not Found');
    expect(screen.getByText(/couldn’t find the page/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Reload page' })).toBeNull();

    const home = screen.getByRole('link', { name: 'Back to Home' });
    expect(home.getAttribute('href')).toBe('/');
    fireEvent.click(home);
    await screen.findByRole('heading', { level: 1, name: 'Every image tool you need, in one palette.' });
    expect(router.state.location.pathname).toBe('/');
  });

  it.each(['/shared/%', '/tools/%zz', '/%E0%A4%A', '/tokens?checkout=%'])(
    'shows the not-found screen for %s, an address with broken percent-encoding (issue 37)',
    async (address) => {
      renderApp(address);
      expect((await screen.findByRole('heading', { level: 1 })).textContent).toBe('Unexpected Application Error!');
      expect(screen.getByTestId('error-detail').textContent).toBe('404 Not Found');
      expect(screen.getByRole('link', { name: 'Back to Home' }).getAttribute('href')).toBe('/');
    },
  );

  it('shows a thrown error’s message and offers a reload', async () => {
    // React and the router log the caught error; keep the test output readable.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/boom', routesWith({ path: '/boom', Component: Boom }));
    const main = await screen.findByRole('main');
    expect(within(main).getByRole('heading', { level: 1 }).textContent).toBe('Unexpected Application Error!');
    expect(screen.getByTestId('error-detail').textContent).toBe('Kaboom while rendering');
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Home' })).toBeTruthy();
    logged.mockRestore();
  });

  it('shows the chunk load timeout when a page never arrives', async () => {
    renderApp('/slow', routesWith({ path: '/slow', lazy: () => Promise.reject(new ChunkLoadTimeoutError(120_000)) }));
    await screen.findByRole('heading', { level: 1, name: 'Unexpected Application Error!' });
    expect(screen.getByTestId('error-detail').textContent).toBe(
      'This page did not finish loading within 120 seconds. Check your connection and reload the page.',
    );
  });
});
