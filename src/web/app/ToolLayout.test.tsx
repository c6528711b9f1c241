import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MENU } from '../../contract/routes';
import { renderApp, setViewportWidth } from './test-utils';

/** The menu's labels in the spec's order (src/contract/routes.test.ts pins them to the spec). */
const MENU_LABELS = MENU.map((item) => item.label);

async function renderLayout(path: string) {
  const view = renderApp(path);
  // The first tool page of the file loads the tool registry and the page's modules through Vite's
  // transform (they are lazy, out of the entry): over a second on this 2-core machine.
  await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 });
  return view;
}

afterEach(() => {
  setViewportWidth(1024);
  vi.unstubAllGlobals();
});

describe('tool layout on desktop', () => {
  beforeEach(() => setViewportWidth(1280));

  it('lists every menu item in the spec’s order', async () => {
    await renderLayout('/image-analyzer');
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    const labels = within(nav)
      .getAllByRole('link')
      .map((link) => link.textContent);
    expect(labels).toEqual(MENU_LABELS);
    expect(within(nav).getByRole('link', { name: 'Remove Background' }).getAttribute('href')).toBe(
      '/background-remover',
    );
    expect(within(nav).getByRole('link', { name: 'Creative Upscaler' }).getAttribute('href')).toBe('/creative-upscale');
    expect(within(nav).getByRole('link', { name: 'Fix a Face' }).getAttribute('href')).toBe('/face-fixer');
  });

  it('highlights only the current page', async () => {
    await renderLayout('/colorizer');
    const nav = screen.getByRole('navigation', { name: 'Main menu' });
    const current = within(nav)
      .getAllByRole('link')
      .filter((link) => link.getAttribute('aria-current') === 'page');
    expect(current.map((link) => link.textContent)).toEqual(['Colorizer']);
  });

  it('navigates from the menu', async () => {
    const { router } = await renderLayout('/tokens');
    fireEvent.click(
      within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: 'Text Lab' }),
    );
    await screen.findByRole('heading', { level: 1, name: 'Text Lab' });
    expect(router.state.location.pathname).toBe('/text-lab');
  });

  it('shows one token balance, in the sidebar, asking a signed-out visitor to sign in instead of showing a number', async () => {
    await renderLayout('/text-to-pic');
    await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toContain('Sign in'));
    const balances = screen.getAllByTestId('token-balance');
    expect(balances).toHaveLength(1);
    const [balance] = balances;
    expect(screen.getByTestId('sidebar').contains(balance ?? null)).toBe(true);
    expect(balance?.textContent).toContain('Sign in to see your balance');
    expect(balance?.textContent).not.toMatch(/\d/);
  });

  it('has a wordmark linking home and a skip link to the content', async () => {
    await renderLayout('/user-settings');
    const sidebar = screen.getByTestId('sidebar');
    expect(within(sidebar).getByRole('link', { name: 'Picture Palette' }).getAttribute('href')).toBe('/');
    expect(screen.getByRole('link', { name: 'Skip to content' }).getAttribute('href')).toBe('#main');
    expect(screen.getByRole('main').id).toBe('main');
  });
});

describe('tool layout on a phone', () => {
  beforeEach(() => setViewportWidth(390));

  it('puts the balance in the top bar', async () => {
    await renderLayout('/text-to-pic');
    await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toContain('Sign in'));
    const balance = screen.getByTestId('token-balance');
    expect(screen.getByRole('banner').contains(balance)).toBe(true);
    expect(screen.getByTestId('sidebar').contains(balance)).toBe(false);
    expect(balance.textContent).toContain('Sign in to see your balance');
  });

  it('opens the menu with the toggle and closes it again', async () => {
    await renderLayout('/text-to-pic');
    const toggle = screen.getByTestId('menu-toggle');
    const sidebar = screen.getByTestId('sidebar');
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.getAttribute('aria-label')).toBe('Open menu');
    expect(toggle.getAttribute('aria-controls')).toBe(sidebar.id);
    expect(sidebar.getAttribute('data-open')).toBe('false');
    expect(screen.queryByTestId('menu-overlay')).toBeNull();

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(toggle.getAttribute('aria-label')).toBe('Close menu');
    expect(sidebar.getAttribute('data-open')).toBe('true');
    expect(screen.getByTestId('menu-overlay')).toBeTruthy();
    expect(document.activeElement?.textContent).toBe('Home');
    expect(document.getElementById('main')?.closest('[inert]')).not.toBeNull();

    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('menu-overlay')).toBeNull();
    expect(document.getElementById('main')?.closest('[inert]')).toBeNull();
  });

  it('closes when the overlay is clicked, returning focus to the toggle', async () => {
    await renderLayout('/text-to-pic');
    const toggle = screen.getByTestId('menu-toggle');
    fireEvent.click(toggle);
    fireEvent.click(screen.getByTestId('menu-overlay'));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.getByTestId('sidebar').getAttribute('data-open')).toBe('false');
    expect(screen.queryByTestId('menu-overlay')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(toggle));
  });

  it('closes on Escape', async () => {
    await renderLayout('/text-to-pic');
    const toggle = screen.getByTestId('menu-toggle');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('menu-overlay')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(toggle));
  });

  it('closes when a menu item is chosen and shows that page', async () => {
    const { router } = await renderLayout('/text-to-pic');
    const toggle = screen.getByTestId('menu-toggle');
    fireEvent.click(toggle);
    fireEvent.click(within(screen.getByTestId('sidebar')).getByRole('link', { name: 'Background Swap' }));
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByTestId('menu-overlay')).toBeNull();
    const heading = await screen.findByRole('heading', { level: 1, name: 'Background Swap' });
    expect(router.state.location.pathname).toBe('/background-swap');
    // Focus goes to the new page's heading, not back into the (closed) menu.
    await waitFor(() => expect(document.activeElement).toBe(heading));
  });

  it('choosing the page already shown closes the menu and puts focus on the content', async () => {
    await renderLayout('/text-to-pic');
    fireEvent.click(screen.getByTestId('menu-toggle'));
    fireEvent.click(within(screen.getByTestId('sidebar')).getByRole('link', { name: 'Text to Pic' }));
    await waitFor(() => expect(document.activeElement?.id).toBe('main'));
  });
});

describe('focus after a navigation (issue 38)', () => {
  beforeEach(() => setViewportWidth(1280));

  it('leaves focus alone on the first load', async () => {
    await renderLayout('/colorizer');
    expect(document.activeElement).toBe(document.body);
  });

  it('moves focus to the new page’s h1, so the next Tab starts in the page rather than the sidebar', async () => {
    const { router } = await renderLayout('/colorizer');
    const link = within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: 'Text Lab' });
    link.focus();
    fireEvent.click(link);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Text Lab' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.tabIndex).toBe(-1);
    expect(screen.getByRole('main').contains(heading)).toBe(true);

    // Every page change does it again.
    await router.navigate('/colorizer');
    const colorizer = await screen.findByRole('heading', { level: 1, name: 'Colorizer' });
    await waitFor(() => expect(document.activeElement).toBe(colorizer));
  });

  it('does not move focus when only the query changes', async () => {
    const { router } = await renderLayout('/colorizer');
    const link = within(screen.getByRole('navigation', { name: 'Main menu' })).getByRole('link', { name: 'Tokens' });
    link.focus();
    await router.navigate('/colorizer?image=x', { replace: true });
    expect(document.activeElement).toBe(link);
  });
});
