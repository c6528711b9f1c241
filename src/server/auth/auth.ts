// better-auth on the project database: email + password, verification links (which never replace
// another account's session), password reset (only the newest link works; tokens stored hashed),
// Google (OpenID Connect by discovery, through the standard /sign-in/social and /callback/google), database sessions in an HttpOnly cookie, Origin checks,
// and rate limits kept in the database so every web process shares them.

import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { createEmailVerificationToken } from 'better-auth/api';
import { betterAuth } from 'better-auth/minimal';
import { genericOAuth } from 'better-auth/plugins';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../contract/accounts';
import { START_ROUTE } from '../../contract/routes';
import type { Config } from '../config';
import type { Database } from '../db/client';
import * as schema from '../db/schema';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';
import { passwordResetMail } from '../mail/templates';
import { CLIENT_IP_HEADER } from './client-ip';
import { noticeOldAddress, sendChangeMail, verifyChangedAddress } from './email-change';
import { passwordChangeNotice, sendPasswordNotice } from './password-notice';
import { enforceRequestRules, withNameInLimit } from './request-rules';
import { endEarlierResetLinks, VERIFICATION_STORAGE } from './reset-tokens';
import { createSessionReader } from './session';
import { signInThrottle } from './sign-in-throttle';
import { rememberVerifiedUser, signInAfterVerification } from './verification-sign-in';

export const AUTH_BASE_PATH = '/api/auth';
/** Where the link in the verification mail lands after verifying: the first tool's page, as after sign-in. */
export const AFTER_VERIFICATION_PATH = START_ROUTE;
const VERIFICATION_LINK_SECONDS = 3600;

/** Rate limits per client address, on the routes an attacker would hammer. */
export const AUTH_RATE_LIMITS = {
  '/sign-in/email': { window: 60, max: 10 },
  '/sign-up/email': { window: 60, max: 5 },
  '/request-password-reset': { window: 300, max: 5 },
  '/reset-password': { window: 300, max: 10 },
  '/sign-in/social': { window: 60, max: 10 },
  // A stolen session must not try passwords fast (User Settings' change of password).
  '/change-password': { window: 300, max: 10 },
} as const;

export type AuthDeps = {
  config: Config;
  database: Database;
  mailer: Mailer;
  logger: Logger;
  secret: string;
  /** Runs after a user row is committed (email or Google): creates the profile and its follow-ups. */
  onUserCreated(user: { id: string; email: string; emailVerified: boolean }): Promise<void>;
};

export function createAuth(deps: AuthDeps) {
  const { config, database, mailer, logger, secret } = deps;
  const google = config.auth.google;
  const mailDeps = { mailer, logger, appUrl: config.appUrl };
  const auth = betterAuth({
    appName: 'Picture Palette',
    secret,
    baseURL: config.appUrl,
    basePath: AUTH_BASE_PATH,
    trustedOrigins: config.trustedOrigins,
    database: drizzleAdapter(database.db, {
      provider: 'pg',
      schema: {
        user: schema.user,
        session: schema.session,
        account: schema.account,
        verification: schema.verification,
        rateLimit: schema.rateLimit,
      },
    }),
    telemetry: { enabled: false },
    logger: {
      log: (level, message) => {
        if (level === 'error') logger.error(`auth: ${message}`);
        else if (level === 'warn') logger.warn(`auth: ${message}`);
        else logger.debug(`auth: ${message}`);
      },
    },
    emailAndPassword: {
      enabled: true,
      // The product lets unverified users sign in; the tools enforce verification instead.
      requireEmailVerification: false,
      minPasswordLength: PASSWORD_MIN_LENGTH,
      maxPasswordLength: PASSWORD_MAX_LENGTH,
      resetPasswordTokenExpiresIn: 3600,
      revokeSessionsOnPasswordReset: true,
      // In the background: an answer that waited for the mail server took 125-138 ms for a real
      // address and 16-57 ms for an unknown one, which told who has an account (issue 36). A mail
      // that fails is logged; the user asks again, as for a mail that never arrives.
      sendResetPassword: async ({ user, url }) => {
        void mailer
          .send(passwordResetMail({ to: user.email, url }))
          .catch((error) => logger.error('the password reset mail could not be sent', { error }));
      },
      // The account's address hears of the new password (auth/password-notice.ts).
      onPasswordReset: ({ user }) => sendPasswordNotice(mailDeps, user, 'reset'),
    },
    emailVerification: {
      sendOnSignUp: false, // the account-setup job sends it, with retries
      // Off: better-auth's would replace another account's session. signInAfterVerification signs in
      // a browser without one.
      autoSignInAfterVerification: false,
      afterEmailVerification: rememberVerifiedUser,
      expiresIn: VERIFICATION_LINK_SECONDS,
      // Used by the email change only (auth/email-change.ts); sign-up's mail goes from the account setup.
      sendVerificationEmail: sendChangeMail(mailDeps),
    },
    // The change goes through POST /api/account/email (accounts/routes.ts), which confirms the user
    // first; the new address takes effect only once the link mailed to it is opened.
    user: { changeEmail: { enabled: true } },
    verification: { storeIdentifier: VERIFICATION_STORAGE },
    hooks: { before: enforceRequestRules, after: signInAfterVerification },
    // Not over HTTP: the resend goes through /api/profile/verification-email (which enforces the
    // 60-second cooldown); the email change and the deletion through /api/account (which confirm the
    // user first and, for the deletion, keep the ledger's rows).
    disabledPaths: ['/send-verification-email', '/change-email', '/delete-user'],
    rateLimit: {
      enabled: true,
      storage: 'database',
      window: 60,
      max: 100,
      customRules: AUTH_RATE_LIMITS,
    },
    advanced: {
      // better-auth turns these off when it detects a test runner; we want tests to see production.
      disableOriginCheck: false,
      disableCSRFCheck: false,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      useSecureCookies: config.env === 'production',
      cookiePrefix: 'pp',
    },
    databaseHooks: {
      verification: {
        create: { after: (created) => endEarlierResetLinks(database.db, created) },
      },
      user: {
        update: { before: verifyChangedAddress, after: noticeOldAddress(mailDeps) },
        create: {
          before: async (user) => ({ data: withNameInLimit(user) }),
          // Queued by better-auth until its transaction has committed.
          after: async (user) => {
            await deps.onUserCreated({ id: user.id, email: user.email, emailVerified: user.emailVerified });
          },
        },
      },
    },
    plugins: [
      signInThrottle({ db: database.db, mailer, logger, appUrl: config.appUrl }),
      passwordChangeNotice(mailDeps),
      ...(google
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'google',
                  clientId: google.clientId,
                  clientSecret: google.clientSecret,
                  discoveryUrl: google.discoveryUrl,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                  // Trust an ID token only once its signature checks out against the provider's keys.
                  requireIdTokenVerification: true,
                },
              ],
            }),
          ]
        : []),
    ],
  });
  return Object.assign(auth, { readSessionUser: createSessionReader(auth, database) });
}

export type Auth = ReturnType<typeof createAuth>;

/** A verification link as better-auth's own /verify-email endpoint expects it. */
export async function verificationLink(auth: Auth, user: { id: string; email: string }): Promise<string> {
  const context = await auth.$context;
  const token = await createEmailVerificationToken(context.secret, user.email, undefined, VERIFICATION_LINK_SECONDS, {
    userId: user.id,
  });
  return `${context.baseURL}/verify-email?token=${token}&callbackURL=${encodeURIComponent(AFTER_VERIFICATION_PATH)}`;
}
