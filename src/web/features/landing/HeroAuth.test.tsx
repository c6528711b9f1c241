import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../app/test-utils';
import {
  CONFIG,
  deferred,
  type FakeReply,
  installFakeApi,
  PROFILE,
  session,
  signedInRoutes,
  signedOutRoutes,
} from '../../test-support/fake-api';

const EMAIL = 'ada@example.com';
const PASSWORD = 'correct horse battery';

/** Signed out at first; signed in (with PROFILE) from the second session check on. */
function routesSigningIn(extra: Parameters<typeof installFakeApi>[0] = {}) {
  return {
    ...signedOutRoutes(),
    'GET /api/auth/get-session': [{ body: null }, { body: session() }],
    'GET /api/profile': { body: PROFILE },
    ...extra,
  };
}

async function openLanding() {
  const view = renderApp('/');
  await screen.findByLabelText('Email');
  return { ...view, card: screen.getByTestId('hero-auth') };
}

function fillAndSubmit(email = EMAIL, password: string | null = PASSWORD) {
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: email } });
  if (password !== null) fireEvent.change(screen.getByLabelText('Password'), { target: { value: password } });
  const submit = screen.getByRole('button', { name: /Continue with Email|Send Reset Link/ });
  fireEvent.submit(submit.closest('form') as HTMLFormElement);
}

const message = () => screen.getByTestId('hero-auth-message');

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('hero sign-in form', () => {
  it('shows the spec’s fields, divider, Google button, note and reset link', async () => {
    installFakeApi();
    const { card } = await openLanding();
    const email = within(card).getByLabelText('Email') as HTMLInputElement;
    const password = within(card).getByLabelText('Password') as HTMLInputElement;
    expect(email.type).toBe('email');
    expect(email.required).toBe(true);
    expect(password.type).toBe('password');
    expect(password.required).toBe(true);
    expect(within(card).getByText('or')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Continue with Google' })).toBeTruthy();
    expect(card.querySelector('.pp-auth-card__terms')?.textContent).toBe(
      'By continuing, you agree to our Terms of Service and Privacy Policy',
    );
    expect(within(card).getByRole('button', { name: 'Reset your Password' })).toBeTruthy();
  });

  it('says the password rule up front and shows the password on request', async () => {
    installFakeApi();
    const { card } = await openLanding();
    const password = within(card).getByLabelText('Password') as HTMLInputElement;
    expect(password.getAttribute('aria-describedby')).toBeTruthy();
    const rule = document.getElementById(password.getAttribute('aria-describedby') ?? '');
    expect(rule?.textContent).toBe('At least 8 characters.');
    fireEvent.change(password, { target: { value: 'secret-words' } });
    const toggle = within(card).getByRole('button', { name: 'Show password' });
    fireEvent.click(toggle);
    expect(password.type).toBe('text');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(toggle);
    expect(password.type).toBe('password');
  });

  it('links the note to real Terms of Service and Privacy Policy pages', async () => {
    installFakeApi();
    const { card } = await openLanding();
    fireEvent.click(within(card).getByRole('link', { name: 'Privacy Policy' }));
    await screen.findByRole('heading', { level: 1, name: 'Privacy Policy' });
    expect(document.body.textContent).toContain('Uploads and results are kept until you delete them');
    expect(document.body.textContent).toContain('see My Creations');
    fireEvent.click(screen.getByRole('link', { name: 'Terms of Service' }));
    await screen.findByRole('heading', { level: 1, name: 'Terms of Service' });
  });

  it('shows a placeholder, not the form, until the first auth check answers', async () => {
    const pending = deferred<FakeReply>();
    installFakeApi({ ...signedOutRoutes(), 'GET /api/auth/get-session': () => pending.promise });
    renderApp('/');
    const card = await screen.findByTestId('hero-auth');
    expect(card.getAttribute('aria-busy')).toBe('true');
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Picture Palette' })).toBeNull();
    await act(async () => pending.resolve({ body: null }));
    expect(await screen.findByLabelText('Email')).toBeTruthy();
  });

  it('signs an existing user in and goes to Text to Pic', async () => {
    const api = installFakeApi(routesSigningIn({ 'POST /api/auth/sign-in/email': { body: { redirect: false } } }));
    const { router } = await openLanding();
    fillAndSubmit();
    // The tool page and the tool registry load lazily (Vite's transform, cold in this file): > 1 s here.
    await screen.findByRole('heading', { level: 1, name: 'Text to Pic' }, { timeout: 15_000 });
    expect(router.state.location.pathname).toBe('/text-to-pic');
    expect(api.callsTo('POST /api/auth/sign-in/email').map((call) => call.body)).toEqual([
      { email: EMAIL, password: PASSWORD },
    ]);
    expect(api.callsTo('POST /api/auth/sign-up/email')).toHaveLength(0);
    await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toContain('20 tokens'));
  });

  it('creates the account when sign-in says the credentials are unknown', async () => {
    const api = installFakeApi(
      routesSigningIn({
        'POST /api/auth/sign-in/email': {
          status: 401,
          body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'Invalid email or password' },
        },
        'POST /api/auth/sign-up/email': { body: { token: 't' } },
      }),
    );
    const { router } = await openLanding();
    fillAndSubmit();
    // The tool page and the tool registry load lazily (Vite's transform, cold in this file): > 1 s here.
    await screen.findByRole('heading', { level: 1, name: 'Text to Pic' }, { timeout: 15_000 });
    expect(router.state.location.pathname).toBe('/text-to-pic');
    expect(api.callsTo('POST /api/auth/sign-up/email').map((call) => call.body)).toEqual([
      { email: EMAIL, password: PASSWORD, name: 'ada' },
    ]);
  });

  it('names a new account after its address, cut to the server’s 100 characters', async () => {
    const longLocal = 'a'.repeat(120);
    const api = installFakeApi(
      routesSigningIn({
        'POST /api/auth/sign-in/email': { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'x' } },
        'POST /api/auth/sign-up/email': { body: { token: 't' } },
      }),
    );
    await openLanding();
    fillAndSubmit(`${longLocal}@example.com`);
    await screen.findByRole('heading', { level: 1, name: 'Text to Pic' });
    expect(api.callsTo('POST /api/auth/sign-up/email').map((call) => call.body)).toEqual([
      { email: `${longLocal}@example.com`, password: PASSWORD, name: 'a'.repeat(100) },
    ]);
  });

  it('asks to sign in or reset when the address is already taken', async () => {
    installFakeApi({
      ...signedOutRoutes(),
      'POST /api/auth/sign-in/email': { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'x' } },
      'POST /api/auth/sign-up/email': {
        status: 422,
        body: { code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL', message: 'User already exists. Use another email.' },
      },
    });
    const { router } = await openLanding();
    fillAndSubmit();
    await waitFor(() => expect(message().textContent).toBe('Please try signing in or reset your password.'));
    expect(message().getAttribute('data-tone')).toBe('error');
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('button', { name: 'Continue with Email' })).toHaveProperty('disabled', false);
  });

  it('shows the server’s message for other sign-up errors', async () => {
    installFakeApi({
      ...signedOutRoutes(),
      'POST /api/auth/sign-in/email': { status: 401, body: { code: 'INVALID_EMAIL_OR_PASSWORD', message: 'x' } },
      'POST /api/auth/sign-up/email': {
        status: 400,
        body: { code: 'PASSWORD_TOO_SHORT', message: 'Password too short' },
      },
    });
    await openLanding();
    fillAndSubmit(EMAIL, 'short');
    await waitFor(() => expect(message().textContent).toBe('Password too short'));
  });

  it.each<[string, FakeReply]>([
    ['a rate limit', { status: 429, body: { message: 'Too many requests. Please try again later.' } }],
    ['a server error', { status: 500, body: { code: 'INTERNAL', message: 'boom' } }],
    ['a network failure', 'network-error'],
  ])('answers %s on sign-in with the generic message and creates no account', async (_, reply) => {
    const api = installFakeApi({ ...signedOutRoutes(), 'POST /api/auth/sign-in/email': reply });
    await openLanding();
    fillAndSubmit();
    await waitFor(() => expect(message().textContent).toBe('Invalid email or password. Please try again.'));
    expect(api.callsTo('POST /api/auth/sign-up/email')).toHaveLength(0);
  });

  it('reads Processing... and disables every button while it works', async () => {
    const signIn = deferred<FakeReply>();
    installFakeApi({
      ...signedOutRoutes(),
      'POST /api/auth/sign-in/email': () => signIn.promise,
    });
    await openLanding();
    fillAndSubmit();
    const submit = await screen.findByRole('button', { name: 'Processing...' });
    const card = screen.getByTestId('hero-auth');
    const buttons = within(card).getAllByRole('button');
    expect(buttons.map((button) => button.textContent || button.getAttribute('aria-label'))).toEqual([
      'Show password',
      'Processing...',
      'Continue with Google',
      'Reset your Password',
    ]);
    for (const button of buttons) expect(button).toHaveProperty('disabled', true);

    await act(async () => signIn.resolve({ status: 429, body: { message: 'slow down' } }));
    expect(submit.textContent).toBe('Continue with Email');
    for (const button of within(card).getAllByRole('button')) expect(button).toHaveProperty('disabled', false);
  });

  it('shows a signed-in user a single Picture Palette button into the app', async () => {
    installFakeApi(signedInRoutes());
    const { router } = renderApp('/');
    const button = await screen.findByRole('button', { name: 'Picture Palette' });
    const card = screen.getByTestId('hero-auth');
    expect(within(card).getAllByRole('button')).toEqual([button]);
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(within(card).getByText(`as ${PROFILE.email}`)).toBeTruthy();
    fireEvent.click(button);
    await screen.findByRole('heading', { level: 1, name: 'Text to Pic' });
    expect(router.state.location.pathname).toBe('/text-to-pic');
  });

  it('gives a signed-in user an account menu that signs out', async () => {
    const api = installFakeApi(signedInRoutes());
    renderApp('/');
    const account = await screen.findByRole('button', { name: 'Account' });
    expect(account.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(account);
    expect(account.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByText(`Signed in as ${PROFILE.email}`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'User Settings' }).getAttribute('href')).toBe('/user-settings');
    api.set({ ...signedOutRoutes(), 'POST /api/auth/sign-out': { body: { success: true } } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    await screen.findByLabelText('Email');
    expect(screen.queryByRole('button', { name: 'Account' })).toBeNull();
  });
});

describe('hero password reset', () => {
  it('hides the password, sends the link, confirms and returns to login mode', async () => {
    const api = installFakeApi({
      ...signedOutRoutes(),
      'POST /api/auth/request-password-reset': { body: { status: true } },
    });
    await openLanding();
    fireEvent.click(screen.getByRole('button', { name: 'Reset your Password' }));
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.getByRole('button', { name: 'Back to Login' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send Reset Link' })).toBeTruthy();

    fillAndSubmit(EMAIL, null);
    await waitFor(() =>
      expect(message().textContent).toBe('Password reset email sent. Check your inbox for the link.'),
    );
    expect(message().getAttribute('data-tone')).toBe('success');
    expect(api.callsTo('POST /api/auth/request-password-reset').map((call) => call.body)).toEqual([
      { email: EMAIL, redirectTo: `${window.location.origin}/reset-password` },
    ]);
    // Back in login mode.
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reset your Password' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Continue with Email' })).toBeTruthy();
  });

  it.each<[string, FakeReply]>([
    ['an error answer', { status: 500, body: { message: 'mailer down' } }],
    ['a network failure', 'network-error'],
  ])('says the email could not be sent after %s, staying in reset mode', async (_, reply) => {
    installFakeApi({ ...signedOutRoutes(), 'POST /api/auth/request-password-reset': reply });
    await openLanding();
    fireEvent.click(screen.getByRole('button', { name: 'Reset your Password' }));
    fillAndSubmit(EMAIL, null);
    await waitFor(() => expect(message().textContent).toBe('Failed to send password reset email. Please try again.'));
    expect(message().getAttribute('data-tone')).toBe('error');
    expect(screen.getByRole('button', { name: 'Back to Login' })).toBeTruthy();
  });

  it('Back to Login returns to the sign-in form', async () => {
    installFakeApi();
    await openLanding();
    fireEvent.click(screen.getByRole('button', { name: 'Reset your Password' }));
    fireEvent.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(screen.getByLabelText('Password')).toBeTruthy();
  });
});

describe('hero Google sign-in', () => {
  function fakePopup() {
    return { closed: false, location: { href: 'about:blank' }, close: vi.fn() };
  }

  it('says so, without a popup, when the server has no Google sign-in', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const api = installFakeApi(signedOutRoutes({ ...CONFIG, googleSignIn: false }));
    await openLanding();
    await waitFor(() => expect(api.callsTo('GET /api/config')).toHaveLength(1));
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    const google = screen.getByRole('button', { name: 'Continue with Google' });
    fireEvent.click(google);
    expect(message().textContent).toBe('Google sign-in is not configured on this server.');
    expect(message().getAttribute('data-tone')).toBe('error');
    expect(google).toHaveProperty('disabled', false);
    expect(open).not.toHaveBeenCalled();
  });

  it('opens the popup first, sends it to Google and finishes when the popup reports success', async () => {
    const popup = fakePopup();
    const open = vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    const api = installFakeApi(
      routesSigningIn({
        'POST /api/auth/sign-in/social': {
          body: { url: 'https://accounts.google.com/o/oauth2/auth?x=1', redirect: true },
        },
      }),
    );
    const { router } = await openLanding();
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(open).toHaveBeenCalledWith('about:blank', 'pp-google', 'width=500,height=640');
    await waitFor(() => expect(popup.location.href).toBe('https://accounts.google.com/o/oauth2/auth?x=1'));
    expect(api.callsTo('POST /api/auth/sign-in/social')[0]?.body).toEqual({
      provider: 'google',
      callbackURL: `${window.location.origin}/auth/popup-done.html`,
      errorCallbackURL: `${window.location.origin}/auth/popup-done.html?error=1`,
      disableRedirect: true,
    });
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toHaveProperty('disabled', true);

    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', { data: { type: 'pp-auth', ok: true }, origin: window.location.origin }),
      );
    });
    await screen.findByRole('heading', { level: 1, name: 'Text to Pic' });
    expect(router.state.location.pathname).toBe('/text-to-pic');
  });

  it('ignores messages from other origins and shows the provider’s error', async () => {
    const popup = fakePopup();
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    installFakeApi({ ...signedOutRoutes(), 'POST /api/auth/sign-in/social': { body: { url: 'https://g.example/' } } });
    const { router } = await openLanding();
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(popup.location.href).toBe('https://g.example/'));

    act(() => {
      window.dispatchEvent(
        new MessageEvent('message', { data: { type: 'pp-auth', ok: true }, origin: 'https://evil.example' }),
      );
      window.dispatchEvent(
        new MessageEvent('message', {
          data: { type: 'pp-auth', ok: false, error: 'The user denied access.' },
          origin: window.location.origin,
        }),
      );
    });
    await waitFor(() => expect(message().textContent).toBe('The user denied access.'));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('button', { name: 'Continue with Google' })).toHaveProperty('disabled', false);
  });

  it('closes the popup and shows the server’s message when Google sign-in cannot start', async () => {
    const popup = fakePopup();
    vi.spyOn(window, 'open').mockReturnValue(popup as unknown as Window);
    installFakeApi({
      ...signedOutRoutes(),
      'POST /api/auth/sign-in/social': {
        status: 400,
        body: { code: 'INVALID_CALLBACK_URL', message: 'Invalid callbackURL' },
      },
    });
    await openLanding();
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(message().textContent).toBe('Invalid callbackURL'));
    expect(popup.close).toHaveBeenCalled();
  });
});
