// The accounts API beside better-auth: the session user's profile, the verification resend
// (with the server's cooldown), and what this server offers (GET /api/config).

import { and, eq, ne, sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { SETTINGS_MESSAGES } from '../../contract/account-settings';
import {
  ACCOUNT_MESSAGES,
  type AccountDetails,
  EMAIL_CHANGED_PARAM,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  type PublicConfig,
  VERIFICATION_RESEND_COOLDOWN_SECONDS,
} from '../../contract/accounts';
import { ROUTES } from '../../contract/routes';
import { describeRoute } from '../api-docs/describe-route';
import type { Auth } from '../auth/auth';
import { sendPasswordNotice } from '../auth/password-notice';
import { sessionUser } from '../auth/session';
import { deleteProviderCustomer, endOpenCheckouts } from '../billing/account-payments';
import type { PaymentProvider } from '../billing/payment-provider';
import type { Config } from '../config';
import type { AppDb } from '../db/client';
import { session, user } from '../db/schema';
import type { JobSignals } from '../jobs/queue/job-signals';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';
import { readOrCreateProfile, type SignupBonusCounter } from '../profiles/profiles';
import type { FileStorage } from '../storage/storage';
import { deleteAccount } from './account-deletion';
import { GET_CONFIG_OPERATION, GET_PROFILE_OPERATION } from './api-docs';
import { recordDeletedEmail } from './deleted-emails';
import { confirmIdentity, signInMethods } from './reauth';
import { sendVerificationMail } from './verification-mail';

export type AccountRoutesDeps = {
  config: Config;
  db: AppDb;
  auth: Auth;
  mailer: Mailer;
  logger: Logger;
  storage: FileStorage;
  payments: PaymentProvider;
  /** Stops the deleted account's runs and wakes its waiters in this process, or relayed. */
  signals: JobSignals;
  /** Counts a signup bonus a profile read credited late (GET /metrics). */
  metrics?: SignupBonusCounter;
};

export const DEV_MAIL_PATH = '/dev/mail';

export function accountRoutes(deps: AccountRoutesDeps) {
  const { db, auth } = deps;
  const app = new Hono();

  app.get('/config', describeRoute(GET_CONFIG_OPERATION), (c) =>
    c.json({
      googleSignIn: deps.config.auth.google !== null,
      devMailUrl: deps.mailer.kind === 'outbox' && deps.config.env !== 'production' ? DEV_MAIL_PATH : null,
      supportEmail: deps.config.supportEmail,
    } satisfies PublicConfig),
  );

  /** The JSON body of a request, or {} when it has none or it is not an object. */
  async function bodyOf(c: { req: { json(): Promise<unknown> } }): Promise<Record<string, unknown>> {
    const body = await c.req.json().catch(() => null);
    return body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  }

  app.get('/account', async (c) => {
    const current = await auth.api.getSession({ headers: c.req.raw.headers });
    if (!current) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    c.header('Cache-Control', 'no-store');
    return c.json({
      name: current.user.name,
      email: current.user.email,
      emailVerified: current.user.emailVerified,
      ...(await signInMethods(db, current.user.id)),
    } satisfies AccountDetails);
  });

  // Confirmed by a recent sign-in, or the password sent with the request (reauth.ts): a page left
  // open must not let someone else end the account, and the user can confirm right where they are.
  app.delete('/account', async (c) => {
    const confirmed = await confirmIdentity(deps, c.req.raw.headers, (await bodyOf(c)).password, 'delete your account');
    if (!confirmed.ok) return c.json(confirmed.body, confirmed.status);
    const { current } = confirmed;
    // Checkouts first, so that none can still be paid into the deleted account.
    const customerId = await endOpenCheckouts(deps, current.user.id);
    await recordDeletedEmail(db, (await auth.$context).secret, current.user.email);
    deps.signals.jobsDeleted(await deleteAccount(db, deps.storage, current.user.id));
    await deleteProviderCustomer(deps, current.user.id, customerId);
    deps.logger.info('account deleted', { userId: current.user.id });
    return c.body(null, 204);
  });

  // A link to the new address (better-auth's changeEmail); nothing changes until it is opened, and
  // the old address is told then (auth/email-change.ts).
  app.post('/account/email', async (c) => {
    const body = await bodyOf(c);
    const confirmed = await confirmIdentity(deps, c.req.raw.headers, body.password, 'change your email');
    if (!confirmed.ok) return c.json(confirmed.body, confirmed.status);
    const newEmail = typeof body.newEmail === 'string' ? body.newEmail.trim().toLowerCase() : '';
    if (!looksLikeEmail(newEmail)) return c.json({ error: SETTINGS_MESSAGES.emailInvalid }, 400);
    if (newEmail === confirmed.current.user.email.toLowerCase())
      return c.json({ error: SETTINGS_MESSAGES.emailSame }, 400);
    // Sign-up already says when an address has an account (the spec's "Please try signing in"), so
    // saying it here tells nobody anything new; better-auth's own answer would be a silent 200.
    const [taken] = await db.select({ id: user.id }).from(user).where(sql`lower(${user.email}) = ${newEmail}`);
    if (taken) return c.json({ error: SETTINGS_MESSAGES.emailTaken }, 400);
    try {
      await auth.api.changeEmail({
        body: { newEmail, callbackURL: `${ROUTES.userSettings}?${EMAIL_CHANGED_PARAM}=1` },
        headers: c.req.raw.headers,
      });
    } catch (error) {
      deps.logger.error('the email change link could not be sent', { userId: confirmed.current.user.id, error });
      return c.json({ error: 'We could not send the link right now. Please try again in a moment.' }, 502);
    }
    return c.json({ sentTo: newEmail, message: SETTINGS_MESSAGES.emailChangeSent(newEmail) });
  });

  // A first password for an account that signs in with Google only (better-auth's server-only
  // setPassword). The other sessions end, and the address is told, as with every new password.
  app.post('/account/password', async (c) => {
    const body = await bodyOf(c);
    const confirmed = await confirmIdentity(deps, c.req.raw.headers, undefined, 'set a password');
    if (!confirmed.ok) {
      // An account with a password changes it with the current one (better-auth's /change-password).
      if (confirmed.status === 403 && 'reauth' in confirmed.body && confirmed.body.reauth === 'password')
        return c.json({ error: SETTINGS_MESSAGES.passwordAlreadySet }, 400);
      return c.json(confirmed.body, confirmed.status);
    }
    if (confirmed.signInMethods.hasPassword) return c.json({ error: SETTINGS_MESSAGES.passwordAlreadySet }, 400);
    const newPassword = body.newPassword;
    if (typeof newPassword !== 'string' || newPassword.length < PASSWORD_MIN_LENGTH)
      return c.json({ error: SETTINGS_MESSAGES.passwordTooShort }, 400);
    if (newPassword.length > PASSWORD_MAX_LENGTH) return c.json({ error: SETTINGS_MESSAGES.passwordTooLong }, 400);
    await auth.api.setPassword({ body: { newPassword }, headers: c.req.raw.headers });
    const { current } = confirmed;
    await db.delete(session).where(and(eq(session.userId, current.user.id), ne(session.id, current.session.id)));
    await sendPasswordNotice({ ...deps, appUrl: deps.config.appUrl }, current.user, 'set');
    return c.json({ status: true });
  });

  app.get('/profile', describeRoute(GET_PROFILE_OPERATION), async (c) => {
    const current = await sessionUser(auth, c);
    if (!current) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    c.header('Cache-Control', 'no-store');
    return c.json(await readOrCreateProfile(db, current.id, deps.metrics));
  });

  app.post('/profile/verification-email', async (c) => {
    const current = await sessionUser(auth, c);
    if (!current) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    if (current.emailVerified) return c.json({ error: ACCOUNT_MESSAGES.alreadyVerified }, 409);
    await readOrCreateProfile(db, current.id, deps.metrics);
    try {
      const result = await sendVerificationMail(deps, { id: current.id, email: current.email });
      if (!result.sent) {
        c.header('Retry-After', String(result.retryAfterSeconds));
        return c.json(
          {
            error: ACCOUNT_MESSAGES.resendTooSoon(result.retryAfterSeconds),
            retryAfterSeconds: result.retryAfterSeconds,
          },
          429,
        );
      }
    } catch (error) {
      deps.logger.error('verification mail could not be sent', { userId: current.id, error });
      return c.json({ error: 'We could not send the email right now. Please try again in a moment.' }, 502);
    }
    return c.json({ retryAfterSeconds: VERIFICATION_RESEND_COOLDOWN_SECONDS });
  });

  return app;
}

/** Enough of an address to send a link to: the link itself is the real check. */
function looksLikeEmail(email: string) {
  return email.length <= 254 && /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/.test(email);
}
