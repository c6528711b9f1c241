// The calls the accounts UI makes: better-auth under /api/auth and our own /api/profile and /api/config.
// Plain fetch through lib/api (no auth client package: the landing page's JavaScript stays small).
import {
  ACCOUNT_API,
  ACCOUNT_ROUTES,
  NAME_MAX_LENGTH,
  type Profile,
  type PublicConfig,
} from '../../../contract/accounts';
import { type ApiResult, getJson, postJson } from '../api';

export const AUTH_API = {
  session: '/api/auth/get-session',
  signIn: '/api/auth/sign-in/email',
  signUp: '/api/auth/sign-up/email',
  signOut: '/api/auth/sign-out',
  requestPasswordReset: '/api/auth/request-password-reset',
  resetPassword: '/api/auth/reset-password',
  /** Google is an OpenID Connect provider behind better-auth's standard social sign-in. */
  social: '/api/auth/sign-in/social',
} as const;

/** The part of better-auth's user this UI reads. */
export type AuthUser = { id: string; email: string; emailVerified: boolean };

export type SessionBody = { session: unknown; user: AuthUser } | null;

/** The popup's message to its opener (public/auth/popup-done.js). */
export type PopupMessage = { type: 'pp-auth'; ok: boolean; error?: string | null };

export const POPUP_MESSAGE_TYPE = 'pp-auth';

export const getSession = () => getJson<SessionBody>(AUTH_API.session);

export const getProfile = () => getJson<Profile>(ACCOUNT_API.profile);

export const getPublicConfig = () => getJson<PublicConfig>(ACCOUNT_API.config);

export const signInWithEmail = (email: string, password: string) =>
  postJson<unknown>(AUTH_API.signIn, { email, password });

/** better-auth wants a name: the part of the address before '@', within the server's limit. */
export const signUpWithEmail = (email: string, password: string) =>
  postJson<unknown>(AUTH_API.signUp, {
    email,
    password,
    name: (email.split('@')[0] ?? email).slice(0, NAME_MAX_LENGTH),
  });

export const signOutRequest = () => postJson<unknown>(AUTH_API.signOut, {});

export const requestPasswordReset = (email: string) =>
  postJson<unknown>(AUTH_API.requestPasswordReset, {
    email,
    redirectTo: `${window.location.origin}${ACCOUNT_ROUTES.resetPassword}`,
  });

export const resetPassword = (newPassword: string, token: string) =>
  postJson<unknown>(AUTH_API.resetPassword, { newPassword, token });

export const startGoogleSignIn = (): Promise<ApiResult<{ url?: string; redirect?: boolean }>> => {
  const done = `${window.location.origin}${ACCOUNT_ROUTES.googlePopupDone}`;
  return postJson(AUTH_API.social, {
    provider: 'google',
    callbackURL: done,
    errorCallbackURL: `${done}?error=1`,
    disableRedirect: true,
  });
};

export const sendVerificationEmail = () =>
  postJson<{ retryAfterSeconds?: number; error?: string }>(ACCOUNT_API.verificationEmail, {});

export function isPopupMessage(data: unknown): data is PopupMessage {
  return (
    data !== null &&
    typeof data === 'object' &&
    (data as { type?: unknown }).type === POPUP_MESSAGE_TYPE &&
    typeof (data as { ok?: unknown }).ok === 'boolean'
  );
}
