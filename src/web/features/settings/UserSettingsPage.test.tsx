import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../app/test-utils';
import { CONFIG, deferred, type FakeReply, installFakeApi, PROFILE, signedInRoutes } from '../../test-support/fake-api';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function openSettings() {
  const view = renderApp('/user-settings');
  await screen.findByRole('heading', { level: 1, name: 'User Settings' });
  return view;
}

const account = () => screen.getByRole('region', { name: 'Account' });

/** Lets pending fetch answers land (they resolve on microtasks). */
const settle = () => act(() => vi.advanceTimersByTimeAsync(0));

describe('User Settings', () => {
  it('shows the email, the balance and the verified tick of a verified user', async () => {
    installFakeApi(signedInRoutes({ email: 'grace@example.com', tokens: 1100 }));
    await openSettings();
    await screen.findByRole('region', { name: 'Account' });
    expect(within(account()).getByTestId('account-email').textContent).toBe('grace@example.com');
    expect(within(account()).getByTestId('account-tokens').textContent).toBe('1,100 tokens');
    expect(within(account()).getByText('Email verified')).toBeTruthy();
    expect(within(account()).queryByRole('button', { name: 'Verify Email' })).toBeNull();
  });

  it('shows a neutral placeholder while the first auth check runs', async () => {
    const pending = deferred<FakeReply>();
    installFakeApi({ ...signedInRoutes(), 'GET /api/auth/get-session': () => pending.promise });
    await openSettings();
    expect(screen.getByTestId('settings-loading')).toBeTruthy();
    expect(screen.queryByText('Sign in to see your account')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
  });

  it('asks a signed-out visitor to sign in, linking to the home page’s sign-in form', async () => {
    installFakeApi();
    await openSettings();
    await screen.findByRole('heading', { level: 2, name: 'Sign in to see your account' });
    expect(screen.getByRole('link', { name: 'Sign in or create an account' }).getAttribute('href')).toBe('/#sign-in');
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
  });

  it('sends the verification email and counts down 60 seconds before the next one', async () => {
    const api = installFakeApi({
      ...signedInRoutes({ emailVerified: false }),
      'POST /api/profile/verification-email': { body: { retryAfterSeconds: 60 } },
    });
    await openSettings();
    const verify = await screen.findByRole('button', { name: 'Verify Email' });
    expect(within(account()).queryByText('Email verified')).toBeNull();

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    fireEvent.click(verify);
    await settle();
    expect(api.callsTo('POST /api/profile/verification-email')).toHaveLength(1);
    expect(verify.textContent).toBe('Resend in 60s');
    expect(verify).toHaveProperty('disabled', true);
    expect(screen.getByText('Verification email sent. Check your inbox.')).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(verify.textContent).toBe('Resend in 59s');
    await act(() => vi.advanceTimersByTimeAsync(58_000));
    expect(verify.textContent).toBe('Resend in 1s');
    expect(verify).toHaveProperty('disabled', true);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(verify.textContent).toBe('Verify Email');
    expect(verify).toHaveProperty('disabled', false);
  });

  it('starts the countdown from the server’s retryAfterSeconds on a 429: one countdown, one message', async () => {
    installFakeApi({
      ...signedInRoutes({ emailVerified: false }),
      'POST /api/profile/verification-email': {
        status: 429,
        body: { error: 'Please wait 42 seconds before requesting another email.', retryAfterSeconds: 42 },
      },
    });
    await openSettings();
    const verify = await screen.findByRole('button', { name: 'Verify Email' });

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    fireEvent.click(verify);
    await settle();
    expect(verify.textContent).toBe('Resend in 42s');
    expect(verify).toHaveProperty('disabled', true);
    // The server's static "Please wait 42 seconds" would stand still beside the live countdown.
    expect(screen.queryByText(/Please wait/)).toBeNull();
    expect(screen.getByText('A verification email was sent less than a minute ago. Check your inbox.')).toBeTruthy();

    await act(() => vi.advanceTimersByTimeAsync(12_000));
    expect(verify.textContent).toBe('Resend in 30s');
    await act(() => vi.advanceTimersByTimeAsync(29_000));
    expect(verify).toHaveProperty('disabled', true);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(verify).toHaveProperty('disabled', false);
    expect(verify.textContent).toBe('Verify Email');
  });

  it('links to the development outbox when the server has one', async () => {
    installFakeApi(signedInRoutes({ emailVerified: false }, { ...CONFIG, devMailUrl: '/dev/mail' }));
    await openSettings();
    const link = await screen.findByRole('link', { name: 'Open the development outbox' });
    expect(link.getAttribute('href')).toBe('/dev/mail');
  });

  it('shows the tick without a reload once the address is verified elsewhere (the watcher)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const api = installFakeApi({
      ...signedInRoutes({ emailVerified: false }),
      'GET /api/profile': [
        { body: { ...PROFILE, emailVerified: false } },
        { body: { ...PROFILE, emailVerified: true } },
      ],
    });
    await openSettings();
    await screen.findByRole('button', { name: 'Verify Email' });
    expect(api.callsTo('GET /api/profile')).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(4_999));
    expect(api.callsTo('GET /api/profile')).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1));
    await waitFor(() => expect(within(account()).getByText('Email verified')).toBeTruthy());
    expect(screen.queryByRole('button', { name: 'Verify Email' })).toBeNull();
    expect(api.callsTo('GET /api/profile')).toHaveLength(2);

    // Verified: the watcher stops.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(api.callsTo('GET /api/profile')).toHaveLength(2);
  });

  it('logs out and returns to the home page, signed out', async () => {
    const api = installFakeApi({ ...signedInRoutes(), 'POST /api/auth/sign-out': { body: { success: true } } });
    const { router } = await openSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await screen.findByLabelText('Email');
    expect(router.state.location.pathname).toBe('/');
    expect(api.callsTo('POST /api/auth/sign-out')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Picture Palette' })).toBeNull();
  });

  it('stays put and says so when signing out fails', async () => {
    installFakeApi({ ...signedInRoutes(), 'POST /api/auth/sign-out': 'network-error' });
    const { router } = await openSettings();
    fireEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await screen.findByText('We could not sign you out. Check your connection and try again.');
    expect(router.state.location.pathname).toBe('/user-settings');
  });
});
