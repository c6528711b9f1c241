import { render } from '@testing-library/react';
import { vi } from 'vitest';
import { createMemoryRouter, type RouteObject, RouterProvider } from '../lib/router';
import { installFakeApi } from '../test-support/fake-api';
import { routes } from './routes';

type HappyDomWindow = Window & { happyDOM: { setViewport(size: { width: number; height: number }): void } };

/** Resizes happy-dom's window, which also drives matchMedia (desktop layout from 900px). */
export function setViewportWidth(width: number): void {
  (window as unknown as HappyDomWindow).happyDOM.setViewport({ width, height: width < 600 ? 844 : 900 });
}

/**
 * Renders the app's real route tree (or a variant of it) at `path` in a memory router. Unless the test
 * installed a fake API (test-support/fake-api), the server answers as for a visitor who is signed out.
 */
export function renderApp(path: string, routeObjects: RouteObject[] = routes) {
  if (!vi.isMockFunction(globalThis.fetch)) installFakeApi();
  const router = createMemoryRouter(routeObjects, { initialEntries: [path] });
  const view = render(<RouterProvider router={router} />);
  return { router, ...view };
}
