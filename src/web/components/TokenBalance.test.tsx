import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, setViewportWidth } from '../app/test-utils';
import { deferred, type FakeReply, installFakeApi, PROFILE, signedInRoutes } from '../test-support/fake-api';

afterEach(() => {
  vi.unstubAllGlobals();
  setViewportWidth(1024);
});

describe('token balance', () => {
  beforeEach(() => setViewportWidth(1280));

  it('shows the signed-in user’s live balance and follows it on focus', async () => {
    const api = installFakeApi({
      ...signedInRoutes(),
      'GET /api/profile': [{ body: { ...PROFILE, tokens: 1 } }, { body: { ...PROFILE, tokens: 2400 } }],
    });
    renderApp('/text-to-pic');
    await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toBe('Token balance1 token'));
    const value = within(screen.getByTestId('token-balance')).getByText('1 token');
    expect(value.className).toContain('pp-tabular');

    act(() => {
      window.dispatchEvent(new Event('focus'));
    });
    await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toBe('Token balance2,400 tokens'));
    expect(api.callsTo('GET /api/profile')).toHaveLength(2);
    expect(screen.getAllByTestId('token-balance')).toHaveLength(1);
  });

  it('shows a skeleton, not the signed-out hint, until the first check answers', async () => {
    const pending = deferred<FakeReply>();
    installFakeApi({ ...signedInRoutes(), 'GET /api/auth/get-session': () => pending.promise });
    renderApp('/text-to-pic');
    await screen.findByRole('heading', { level: 1, name: 'Text to Pic' });
    const balance = screen.getByTestId('token-balance');
    expect(balance.getAttribute('aria-busy')).toBe('true');
    expect(balance.textContent).not.toMatch(/Sign in|\d/);
    await act(async () => pending.resolve({ body: null }));
    await waitFor(() =>
      expect(screen.getByTestId('token-balance').textContent).toContain('Sign in to see your balance'),
    );
  });

  it('shows the number in the phone’s top bar', async () => {
    setViewportWidth(390);
    installFakeApi(signedInRoutes({ tokens: 57 }));
    renderApp('/text-to-pic');
    await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toBe('Token balance: 57 tokens'));
    expect(screen.getByRole('banner').contains(screen.getByTestId('token-balance'))).toBe(true);
  });

  it('offers to sign in, not “— tokens”, on a phone when signed out', async () => {
    setViewportWidth(390);
    installFakeApi();
    renderApp('/text-to-pic');
    await waitFor(() =>
      expect(screen.getByTestId('token-balance').textContent).toBe('Token balance: Sign in to see your balance'),
    );
    expect(screen.getByTestId('token-balance').textContent).not.toContain('— tokens');
    const link = within(screen.getByTestId('token-balance')).getByRole('link', { name: /Sign in/ });
    expect(link.getAttribute('href')).toBe('/#sign-in');
  });

  it('signs the tab out when another tab signs out', async () => {
    const api = installFakeApi(signedInRoutes({ tokens: 7 }));
    renderApp('/text-to-pic');
    await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toContain('7 tokens'));
    api.set({ 'GET /api/auth/get-session': { body: null } });
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: 'pp-auth-changed', newValue: '1' }));
    });
    await waitFor(() =>
      expect(screen.getByTestId('token-balance').textContent).toContain('Sign in to see your balance'),
    );
  });
});
