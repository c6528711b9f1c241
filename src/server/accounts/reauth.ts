// Confirming that the person at the keyboard owns the account before a change that would hand it
// over or end it (deleting it, changing its email, setting a first password): a sign-in within the
// last FRESH_SIGN_IN_MINUTES, or the account's password sent with the request. An account without a
// password (Google only) signs in with Google again. Decision 055.
import { eq } from 'drizzle-orm';
import { SETTINGS_MESSAGES } from '../../contract/account-settings';
import {
  ACCOUNT_MESSAGES,
  FRESH_SIGN_IN_MINUTES,
  PASSWORD_MAX_LENGTH,
  type ReauthRequired,
} from '../../contract/accounts';
import type { Auth } from '../auth/auth';
import {
  countWrongPassword,
  forgetWrongPasswords,
  passwordTriesPausedForMs,
  SIGN_IN_PAUSED_MESSAGE,
} from '../auth/sign-in-throttle';
import type { AppDb } from '../db/client';
import { account } from '../db/schema';

export const FRESH_SESSION_MS = FRESH_SIGN_IN_MINUTES * 60 * 1000;

type Current = NonNullable<Awaited<ReturnType<Auth['api']['getSession']>>>;

export type Confirmed =
  | { ok: true; current: Current; signInMethods: SignInMethods }
  | { ok: false; status: 400 | 401 | 403 | 429; body: { error: string } | ReauthRequired };

export type SignInMethods = { hasPassword: boolean; hasGoogle: boolean };

export async function signInMethods(db: AppDb, userId: string): Promise<SignInMethods> {
  const rows = await db
    .select({ providerId: account.providerId, password: account.password })
    .from(account)
    .where(eq(account.userId, userId));
  return {
    hasPassword: rows.some((row) => row.providerId === 'credential' && Boolean(row.password)),
    hasGoogle: rows.some((row) => row.providerId === 'google'),
  };
}

/**
 * The session of the request, if its sign-in is recent or `password` (from the body) is right.
 * `action` completes "To ..., confirm it's you" in the 403 that says how to confirm.
 */
export async function confirmIdentity(
  deps: { db: AppDb; auth: Auth },
  headers: Headers,
  password: unknown,
  action: string,
): Promise<Confirmed> {
  const current = await deps.auth.api.getSession({ headers });
  if (!current) return { ok: false, status: 401, body: { error: ACCOUNT_MESSAGES.signInRequired } };
  const methods = await signInMethods(deps.db, current.user.id);
  if (typeof password === 'string' && password !== '') {
    if (!methods.hasPassword) return { ok: false, status: 400, body: { error: SETTINGS_MESSAGES.noPasswordToCheck } };
    // Counted with the account's wrong sign-ins: a stolen session cannot guess the password here either.
    const email = current.user.email;
    if ((await passwordTriesPausedForMs(deps.db, email)) > 0)
      return { ok: false, status: 429, body: { error: SIGN_IN_PAUSED_MESSAGE } };
    if (password.length > PASSWORD_MAX_LENGTH || !(await passwordIsRight(deps.auth, headers, password))) {
      await countWrongPassword(deps.db, email);
      return { ok: false, status: 400, body: { error: SETTINGS_MESSAGES.wrongPassword } };
    }
    await forgetWrongPasswords(deps.db, email);
    return { ok: true, current, signInMethods: methods };
  }
  if (Date.now() - new Date(current.session.createdAt).getTime() <= FRESH_SESSION_MS)
    return { ok: true, current, signInMethods: methods };
  const body: ReauthRequired = methods.hasPassword
    ? { error: SETTINGS_MESSAGES.confirmWithPassword(action), reauth: 'password' }
    : { error: SETTINGS_MESSAGES.confirmWithGoogle(action), reauth: 'google' };
  return { ok: false, status: 403, body };
}

async function passwordIsRight(auth: Auth, headers: Headers, password: string): Promise<boolean> {
  try {
    await auth.api.verifyPassword({ body: { password }, headers });
    return true;
  } catch {
    return false;
  }
}
