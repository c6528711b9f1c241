// The accounts API beside better-auth: the session user's profile, the verification resend
// (with the server's cooldown), and what this server offers (GET /api/config).
import { Hono } from 'hono';
import { ACCOUNT_MESSAGES, type PublicConfig, VERIFICATION_RESEND_COOLDOWN_SECONDS } from '../../contract/accounts';
import type { Auth } from '../auth/auth';
import { sessionUser } from '../auth/session';
import { deleteProviderCustomer, endOpenCheckouts } from '../billing/account-payments';
import type { PaymentProvider } from '../billing/payment-provider';
import type { Config } from '../config';
import type { AppDb } from '../db/client';
import type { JobSignals } from '../jobs/queue/job-signals';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';
import type { FileStorage } from '../storage/storage';
import { deleteAccount, FRESH_SESSION_MS } from './account-deletion';
import { recordDeletedEmail } from './deleted-emails';
import { readOrCreateProfile } from './profiles';
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
};

export const DEV_MAIL_PATH = '/dev/mail';

export function accountRoutes(deps: AccountRoutesDeps) {
  const { db, auth } = deps;
  const app = new Hono();

  app.get('/config', (c) =>
    c.json({
      googleSignIn: deps.config.auth.google !== null,
      devMailUrl: deps.mailer.kind === 'outbox' && deps.config.env !== 'production' ? DEV_MAIL_PATH : null,
    } satisfies PublicConfig),
  );

  // Confirmed by a fresh sign-in (works for password and Google accounts alike): the page asks the
  // user to sign in again when the session is older than FRESH_SESSION_MS.
  app.delete('/account', async (c) => {
    const current = await auth.api.getSession({ headers: c.req.raw.headers });
    if (!current) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    if (Date.now() - new Date(current.session.createdAt).getTime() > FRESH_SESSION_MS)
      return c.json({ error: 'To delete your account, sign in again first (within the last 10 minutes).' }, 403);
    // Checkouts first, so that none can still be paid into the deleted account.
    const customerId = await endOpenCheckouts(deps, current.user.id);
    await recordDeletedEmail(db, (await auth.$context).secret, current.user.email);
    deps.signals.jobsDeleted(await deleteAccount(db, deps.storage, current.user.id));
    await deleteProviderCustomer(deps, current.user.id, customerId);
    deps.logger.info('account deleted', { userId: current.user.id });
    return c.body(null, 204);
  });

  app.get('/profile', async (c) => {
    const current = await sessionUser(auth, c.req.raw.headers);
    if (!current) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    c.header('Cache-Control', 'no-store');
    return c.json(await readOrCreateProfile(db, current.id));
  });

  app.post('/profile/verification-email', async (c) => {
    const current = await sessionUser(auth, c.req.raw.headers);
    if (!current) return c.json({ error: ACCOUNT_MESSAGES.signInRequired }, 401);
    if (current.emailVerified) return c.json({ error: ACCOUNT_MESSAGES.alreadyVerified }, 409);
    await readOrCreateProfile(db, current.id);
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
