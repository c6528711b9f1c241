// A result card's "Send to" menu (issue 38): one button beside Download, the tools behind it, with
// the keyboard of WAI-ARIA's menu button pattern.
import { fireEvent, render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createMemoryRouter, type RouteObject, RouterProvider } from '../../../lib/router';
import { SendToMenu } from './SendToMenu';

const FILE = '/api/files/00000000-0000-4000-8000-000000000001';
const TARGETS = [
  { label: 'Send to Background Remover', route: '/background-remover' },
  { label: 'Send to Upscaler', route: '/image-upscaler' },
  { label: 'Send to Analyzer', route: '/image-analyzer' },
];

function renderMenu(url = FILE, imageNumber: number | null = null) {
  const routes: RouteObject[] = [
    {
      path: '/',
      Component: () => (
        <>
          <SendToMenu url={url} targets={TARGETS} imageNumber={imageNumber} />
          <button type="button">After the menu</button>
        </>
      ),
    },
    ...TARGETS.map((target) => ({ path: target.route, Component: () => <h1>{target.route}</h1> })),
  ];
  const router = createMemoryRouter(routes, { initialEntries: ['/'] });
  render(<RouterProvider router={router} />);
  return router;
}

const button = () => screen.getByRole('button', { name: /^Send to another tool/ });
/** The popup the button controls (found even while hidden). */
const menu = () => document.getElementById(button().getAttribute('aria-controls') ?? '') as HTMLElement;
const key = (target: Element, name: string) => fireEvent.keyDown(target, { key: name });

describe('the Send to menu button', () => {
  it('is a closed menu button until pressed, then lists the tools as menu items', () => {
    renderMenu();
    expect(button().getAttribute('aria-haspopup')).toBe('menu');
    expect(button().getAttribute('aria-expanded')).toBe('false');
    expect(menu().getAttribute('role')).toBe('menu');
    expect(menu().hidden).toBe(true);
    expect(button().textContent).toBe('Send to');

    fireEvent.click(button());
    expect(button().getAttribute('aria-expanded')).toBe('true');
    expect(menu().hidden).toBe(false);
    expect(screen.getByRole('menu', { name: 'Use this result in another tool' })).toBe(menu());
    const items = within(menu()).getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(TARGETS.map((target) => target.label));
    expect(items.map((item) => item.getAttribute('href'))).toEqual([
      '/background-remover?image=00000000-0000-4000-8000-000000000001',
      '/image-upscaler?image=00000000-0000-4000-8000-000000000001',
      '/image-analyzer?image=00000000-0000-4000-8000-000000000001',
    ]);
    // Items are reached with the arrows, not Tab.
    expect(items.every((item) => item.tabIndex === -1)).toBe(true);
    expect(document.activeElement).toBe(items[0]);
  });

  it('moves with the arrows, Home and End, wrapping at the ends', () => {
    renderMenu();
    key(button(), 'ArrowDown');
    const items = within(menu()).getAllByRole('menuitem');
    expect(document.activeElement).toBe(items[0]);
    key(menu(), 'ArrowDown');
    expect(document.activeElement).toBe(items[1]);
    key(menu(), 'End');
    expect(document.activeElement).toBe(items[2]);
    key(menu(), 'ArrowDown');
    expect(document.activeElement).toBe(items[0]);
    key(menu(), 'ArrowUp');
    expect(document.activeElement).toBe(items[2]);
    key(menu(), 'Home');
    expect(document.activeElement).toBe(items[0]);
  });

  it('opens on the last item with ArrowUp', () => {
    renderMenu();
    key(button(), 'ArrowUp');
    expect(document.activeElement?.textContent).toBe('Send to Analyzer');
  });

  it('closes on Escape and gives focus back to its button', () => {
    renderMenu();
    fireEvent.click(button());
    key(menu(), 'ArrowDown');
    key(menu(), 'Escape');
    expect(button().getAttribute('aria-expanded')).toBe('false');
    expect(menu().hidden).toBe(true);
    expect(document.activeElement).toBe(button());
  });

  it('closes on Tab, and on a press outside it', () => {
    renderMenu();
    fireEvent.click(button());
    key(menu(), 'Tab');
    expect(menu().hidden).toBe(true);

    fireEvent.click(button());
    expect(menu().hidden).toBe(false);
    fireEvent.pointerDown(screen.getByRole('button', { name: 'After the menu' }));
    expect(menu().hidden).toBe(true);
  });

  it('closes when its button is pressed again', () => {
    renderMenu();
    fireEvent.click(button());
    fireEvent.click(button());
    expect(menu().hidden).toBe(true);
    expect(document.activeElement).toBe(button());
  });

  it('opens the chosen tool with this result as its image (Enter or Space)', async () => {
    const router = renderMenu();
    fireEvent.click(button());
    key(menu(), 'ArrowDown');
    // Space follows the link, as Enter (the browser's own) does.
    key(menu(), ' ');
    await screen.findByRole('heading', { name: '/image-upscaler' });
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(
      '/image-upscaler?image=00000000-0000-4000-8000-000000000001',
    );
  });

  it('names the image it sends among several', () => {
    renderMenu(FILE, 3);
    expect(button().getAttribute('aria-label')).toBe('Send to another tool (image 3)');
  });

  it('is not shown for an image that is not stored here', () => {
    renderMenu('https://example.com/a.png');
    expect(screen.queryByRole('button', { name: /^Send to/ })).toBeNull();
  });
});
