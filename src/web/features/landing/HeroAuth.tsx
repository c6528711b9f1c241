import { ArrowRight, CircleCheck } from 'lucide-react';
import { type FormEvent, useCallback, useEffect, useId, useRef, useState } from 'react';
import { ACCOUNT_MESSAGES, PASSWORD_MIN_LENGTH, SIGNUP_TOKENS } from '../../../contract/accounts';
import { START_ROUTE } from '../../../contract/routes';
import { FormMessage, type FormMessageValue } from '../../components/FormMessage';
import { PasswordField } from '../../components/PasswordField';
import { TextField } from '../../components/TextField';
import { errorCode, errorMessage } from '../../lib/api';
import { formatTokens } from '../../lib/format-cost';
import { LEGAL_ROUTES } from '../../lib/legal-routes';
import { Link, useLocation, useNavigate } from '../../lib/router';
import {
  isPopupMessage,
  requestPasswordReset,
  signInWithEmail,
  signUpWithEmail,
  startGoogleSignIn,
} from '../../lib/session/auth-api';
import { useAuth, usePublicConfig } from '../../lib/session/auth-context';
import { SIGN_IN_HASH } from '../../lib/sign-in-link';
import { useHydrated } from '../../lib/use-hydrated';

/** After sign-in or sign-up the app goes to the start tool's page, Text to Pic's (product-spec.md section 2). */
export const AFTER_SIGN_IN_ROUTE = START_ROUTE;

/** Exact strings of product-spec.md sections 2 and 4. */
export const HERO_TEXT = {
  processing: 'Processing...',
  terms: 'By continuing, you agree to our Terms of Service and Privacy Policy',
  toReset: 'Reset your Password',
  toLogin: 'Back to Login',
  signedInButton: 'Picture Palette',
  submit: 'Continue with Email',
  sendReset: 'Send Reset Link',
  google: 'Continue with Google',
} as const;

/** The server's password rule, said before a new account is refused for it. */
export const PASSWORD_RULE = `At least ${PASSWORD_MIN_LENGTH} characters.`;

const GOOGLE_FAILED = 'Google sign-in failed. Please try again.';
const POPUP_BLOCKED = 'The sign-in window was blocked. Allow pop-ups for this site and try again.';
const SIGN_UP_FAILED = 'We could not create your account. Please try again.';
const POPUP_WATCH_MS = 500;

type Mode = 'sign-in' | 'reset';

/** The Google "G", in Google's colours (a brand mark, not an interface icon). */
function GoogleMark() {
  return (
    <svg width="18" height="18" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <path
        fill="#FFC107"
        d="M43.6 20.5H42V20H24v8h11.3C33.7 32.7 29.2 36 24 36c-6.6 0-12-5.4-12-12s5.4-12 12-12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 12.9 4 4 12.9 4 24s8.9 20 20 20 20-8.9 20-20c0-1.3-.1-2.4-.4-3.5Z"
      />
      <path
        fill="#FF3D00"
        d="m6.3 14.7 6.6 4.8C14.7 15.1 19 12 24 12c3.1 0 5.8 1.2 7.9 3.1l5.7-5.7C34 6.1 29.3 4 24 4 16.3 4 9.7 8.3 6.3 14.7Z"
      />
      <path
        fill="#4CAF50"
        d="M24 44c5.2 0 9.9-2 13.4-5.2l-6.2-5.2C29.2 35.1 26.7 36 24 36c-5.2 0-9.6-3.3-11.3-7.9l-6.5 5C9.5 39.6 16.2 44 24 44Z"
      />
      <path
        fill="#1976D2"
        d="M43.6 20.5H42V20H24v8h11.3c-.8 2.2-2.2 4.2-4.1 5.6l6.2 5.2C37 39.2 44 34 44 24c0-1.3-.1-2.4-.4-3.5Z"
      />
    </svg>
  );
}

/** A readable line for the popup's error (better-auth sends a code and sometimes a description). */
function describeGoogleError(error: string | null | undefined): string {
  if (!error) return GOOGLE_FAILED;
  if (/^[a-z_]+$/.test(error)) return `Google sign-in failed (${error.replaceAll('_', ' ')}). Please try again.`;
  return error;
}

/**
 * The hero's account card (product-spec.md sections 2, 4 and 8): sign-in that creates the account
 * when there is none, password reset, and Google in a popup. A signed-in user gets a single button
 * into the app instead. During the first auth check the card keeps its place with a placeholder.
 */
export function HeroAuth() {
  const { status, user, profile, refresh } = useAuth();
  const hydrated = useHydrated();
  const config = usePublicConfig();
  const navigate = useNavigate();
  const location = useLocation();
  const [mode, setMode] = useState<Mode>('sign-in');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<FormMessageValue | null>(null);
  const popupRef = useRef<Window | null>(null);
  /** Set while a Google sign-in may still complete, even if its popup can no longer talk to us. */
  const googleStarted = useRef(false);
  const titleId = useId();
  const messageId = useId();

  const fail = useCallback((text: string) => setMessage({ tone: 'error', text }), []);

  const finishSignIn = useCallback(async () => {
    await refresh({ announce: true });
    navigate(AFTER_SIGN_IN_ROUTE);
  }, [refresh, navigate]);

  // Sent here to sign in ("/#sign-in" from a tool page or /tokens): the form comes into view with
  // the email field focused, once the first auth check has drawn it and (on a prerendered page, also
  // reached this way when the link is followed before the app has started) hydration has put the
  // form in place of its placeholder.
  useEffect(() => {
    if (!hydrated || status !== 'signed-out' || location.hash !== SIGN_IN_HASH) return;
    const email = document.getElementById(`${titleId}-email`);
    if (!email) return;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    email.closest('[data-testid="hero-auth"]')?.scrollIntoView?.({
      block: 'center',
      behavior: reduceMotion ? 'auto' : 'smooth',
    });
    email.focus({ preventScroll: true });
  }, [hydrated, status, location.hash, titleId]);

  // The Google popup reports back here (public/auth/popup-done.js).
  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      if (event.origin !== window.location.origin || !isPopupMessage(event.data)) return;
      const pending = popupRef.current !== null;
      popupRef.current = null;
      googleStarted.current = false;
      if (event.data.ok) {
        setBusy(true);
        void finishSignIn();
      } else {
        setBusy(false);
        if (pending || event.data.error) fail(describeGoogleError(event.data.error));
      }
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, [finishSignIn, fail]);

  // A popup that could not post back (its opener link cut) still signs this tab in: the popup page
  // announces the change through storage, the provider re-checks, and we carry on into the app.
  useEffect(() => {
    if (status === 'signed-in' && googleStarted.current) {
      googleStarted.current = false;
      navigate(AFTER_SIGN_IN_ROUTE);
    }
  }, [status, navigate]);

  // A popup closed without a word (cancelled, or cut off from this tab) frees the buttons again.
  useEffect(() => {
    if (!busy) return;
    const timer = setInterval(() => {
      if (popupRef.current?.closed) {
        popupRef.current = null;
        setBusy(false);
      }
    }, POPUP_WATCH_MS);
    return () => clearInterval(timer);
  }, [busy]);

  async function signInOrCreate() {
    let signIn: Awaited<ReturnType<typeof signInWithEmail>>;
    try {
      signIn = await signInWithEmail(email, password);
    } catch {
      return fail(ACCOUNT_MESSAGES.invalidSignIn);
    }
    if (signIn.ok) return finishSignIn();
    // "invalid credential or user not found" creates the account; every other sign-in error is generic.
    if (errorCode(signIn.data) !== 'INVALID_EMAIL_OR_PASSWORD') return fail(ACCOUNT_MESSAGES.invalidSignIn);

    let signUp: Awaited<ReturnType<typeof signUpWithEmail>>;
    try {
      signUp = await signUpWithEmail(email, password);
    } catch {
      return fail(SIGN_UP_FAILED);
    }
    if (signUp.ok) return finishSignIn();
    if (errorCode(signUp.data)?.startsWith('USER_ALREADY_EXISTS')) return fail(ACCOUNT_MESSAGES.emailInUse);
    return fail(errorMessage(signUp.data) ?? SIGN_UP_FAILED);
  }

  async function sendResetLink() {
    try {
      const result = await requestPasswordReset(email);
      if (!result.ok) return fail(ACCOUNT_MESSAGES.resetFailed);
    } catch {
      return fail(ACCOUNT_MESSAGES.resetFailed);
    }
    setMode('sign-in');
    setMessage({ tone: 'success', text: ACCOUNT_MESSAGES.resetSent });
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setMessage(null);
    try {
      await (mode === 'reset' ? sendResetLink() : signInOrCreate());
    } finally {
      setBusy(false);
    }
  }

  async function onGoogle() {
    if (busy) return;
    setMessage(null);
    if (config && !config.googleSignIn) return fail(ACCOUNT_MESSAGES.googleNotConfigured);
    // Opened before any await, inside the click, so that pop-up blockers let it through.
    const popup = window.open('about:blank', 'pp-google', 'width=500,height=640');
    if (!popup) return fail(POPUP_BLOCKED);
    popupRef.current = popup;
    googleStarted.current = true;
    setBusy(true);
    const abandon = (text: string) => {
      popupRef.current = null;
      googleStarted.current = false;
      popup.close();
      setBusy(false);
      fail(text);
    };
    try {
      const result = await startGoogleSignIn();
      const url = result.data?.url;
      if (result.ok && typeof url === 'string' && url) {
        popup.location.href = url;
        return;
      }
      const code = errorCode(result.data);
      if (result.status === 404 || code === 'PROVIDER_NOT_FOUND') return abandon(ACCOUNT_MESSAGES.googleNotConfigured);
      abandon(errorMessage(result.data) ?? GOOGLE_FAILED);
    } catch {
      abandon(GOOGLE_FAILED);
    }
  }

  function toggleMode() {
    setMessage(null);
    setMode((current) => (current === 'sign-in' ? 'reset' : 'sign-in'));
  }

  // Also until the page has hydrated: a form in the prerendered HTML would take typing and a submit
  // that nothing handles yet (a visitor's page starts signed out, features/auth/AuthProvider.tsx).
  if (status === 'loading' || !hydrated) {
    return (
      <div className="pp-auth-card pp-auth-card--placeholder" data-testid="hero-auth" aria-busy="true">
        <span className="pp-visually-hidden" role="status">
          Checking your sign-in…
        </span>
        <span className="pp-skeleton pp-skeleton--title" />
        <span className="pp-skeleton pp-skeleton--text" />
        <span className="pp-skeleton pp-skeleton--field" />
        <span className="pp-skeleton pp-skeleton--field" />
        <span className="pp-skeleton pp-skeleton--button" />
      </div>
    );
  }

  if (status === 'signed-in') {
    return (
      <section className="pp-auth-card pp-auth-card--signed-in" data-testid="hero-auth" aria-labelledby={titleId}>
        <span className="pp-auth-card__badge">
          <CircleCheck size={28} aria-hidden="true" />
        </span>
        <h2 id={titleId} className="pp-auth-card__title">
          You’re signed in
        </h2>
        {user?.email ? <p className="pp-auth-card__lead">as {user.email}</p> : null}
        {profile ? (
          <p className="pp-auth-card__balance pp-tabular">{formatTokens(profile.tokens)} ready to use</p>
        ) : null}
        <button
          type="button"
          className="pp-button pp-button--primary pp-button--lg pp-auth-card__wide"
          onClick={() => navigate(AFTER_SIGN_IN_ROUTE)}
        >
          {HERO_TEXT.signedInButton}
          <ArrowRight size={20} aria-hidden="true" />
        </button>
      </section>
    );
  }

  const resetMode = mode === 'reset';
  return (
    <section className="pp-auth-card" data-testid="hero-auth" data-mode={mode} aria-labelledby={titleId}>
      <div className="pp-auth-card__head">
        <h2 id={titleId} className="pp-auth-card__title">
          {resetMode ? 'Reset your password' : 'Sign in or create your account'}
        </h2>
        <p className="pp-auth-card__lead">
          {resetMode
            ? 'Enter your account’s email and we’ll send you a link to choose a new password.'
            : `New here? The same form creates your account, with ${SIGNUP_TOKENS} free tokens to start.`}
        </p>
      </div>

      <form className="pp-auth-form" onSubmit={onSubmit} aria-describedby={messageId}>
        <TextField
          id={`${titleId}-email`}
          label="Email"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          placeholder="you@example.com"
          required
          value={email}
          onValueChange={setEmail}
        />
        {resetMode ? null : (
          <PasswordField
            id={`${titleId}-password`}
            label="Password"
            hint={PASSWORD_RULE}
            toggleDisabled={busy}
            name="password"
            autoComplete="current-password"
            required
            value={password}
            onValueChange={setPassword}
          />
        )}
        <button type="submit" className="pp-button pp-button--primary pp-button--lg" disabled={busy}>
          {busy ? HERO_TEXT.processing : resetMode ? HERO_TEXT.sendReset : HERO_TEXT.submit}
        </button>
      </form>

      <p className="pp-auth-card__divider">
        <span>or</span>
      </p>
      <button
        type="button"
        className="pp-button pp-button--secondary pp-button--lg pp-auth-card__wide"
        disabled={busy}
        onClick={() => void onGoogle()}
      >
        <GoogleMark />
        {HERO_TEXT.google}
      </button>

      <FormMessage id={messageId} className="pp-auth-card__message" testId="hero-auth-message" message={message} />

      <div className="pp-auth-card__foot">
        <button type="button" className="pp-link-button" disabled={busy} onClick={toggleMode}>
          {resetMode ? HERO_TEXT.toLogin : HERO_TEXT.toReset}
        </button>
        <p className="pp-auth-card__terms">
          By continuing, you agree to our <Link to={LEGAL_ROUTES.terms}>Terms of Service</Link> and{' '}
          <Link to={LEGAL_ROUTES.privacy}>Privacy Policy</Link>
        </p>
      </div>
    </section>
  );
}
