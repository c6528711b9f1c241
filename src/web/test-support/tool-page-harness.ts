// The tool pages' test harness: the app at a tool's route against a fake API, and the page's controls.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import type { Profile } from '../../contract/accounts';
import { renderApp, setViewportWidth } from '../app/test-utils';
import { forgetToolsInfo, TOOL_CALL_RETRY_MS } from '../features/tools/tool-api';
import { type FakeApi, type FakeRoutes, installFakeApi, signedInRoutes } from './fake-api';

/** A call whose connection fails is sent once more (same Idempotency-Key) before the page reports it. */
export const AFTER_A_RETRY = { timeout: TOOL_CALL_RETRY_MS + 2000 };

export const action = () => screen.getByTestId('tool-action') as HTMLButtonElement;
export const toolMessage = () => screen.getByTestId('tool-message').textContent;
export const balanceText = () => screen.getByTestId('token-balance').textContent ?? '';
export const prompt = (name = 'Prompt') => screen.getByRole('textbox', { name });
export const typePrompt = (text: string, name?: string) => fireEvent.change(prompt(name), { target: { value: text } });

/** Opens the app at `path` against `routes`, once the page shows `heading` and knows the balance. */
export async function open(path: string, routes: FakeRoutes, heading: string) {
  const api = installFakeApi(routes);
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: heading });
  await waitFor(() => expect(screen.getByTestId('token-balance').getAttribute('aria-busy')).toBeNull());
  return { api, ...view };
}

/** The visitor is now signed in with this balance (the page learns it on window focus). */
export async function nowHolds(api: FakeApi, tokens: number) {
  api.set(signedInRoutes({ tokens }));
  act(() => {
    window.dispatchEvent(new Event('focus'));
  });
  await waitFor(() => expect(balanceText()).toContain(`${tokens} tokens`));
}

/** The body of the first call to `route` (or of call `index`). */
export function sent(api: FakeApi, route: string, index = 0): Record<string, unknown> {
  const call = api.callsTo(route)[index];
  if (!call) throw new Error(`no call ${index} to ${route}`);
  return call.body as Record<string, unknown>;
}

export const signedIn = (overrides: Partial<Profile> = {}, extra: FakeRoutes = {}) => ({
  ...signedInRoutes(overrides),
  ...extra,
});

/** Desktop width, a fresh /api/tools, real timers and globals after each test. */
export function setUpToolPageTests(): void {
  beforeEach(() => {
    setViewportWidth(1280);
    forgetToolsInfo();
  });

  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    setViewportWidth(1024);
  });
}
