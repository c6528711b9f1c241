// Per-account sign-in throttling (issue 36): 111 wrong passwords from 60 addresses met no
// slowdown, since the rate limits count per client address. Failures are counted per email (a
// SHA-256 of it, in better-auth's rate_limit table, shared by every web process): after
// FAILURES_BEFORE_PAUSE within the window, sign-in for that email pauses PAUSE_MS after each
// further failure, and the owner gets one mail. Unknown emails are counted the same, so a pause
// tells nothing about who has an account; a successful sign-in clears the count. A wrong current
// password at /change-password (a stolen session guessing, issue 53) counts the same, and a pause
// refuses it there too, from any address.
import { createHash, randomUUID } from 'node:crypto';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware, getSessionFromCtx, isAPIError } from 'better-auth/api';
import { eq, sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { rateLimit } from '../db/schema';
import type { Logger } from '../log';
import type { Mailer } from '../mail/mailer';
import { signInBurstMail } from '../mail/templates';

export const FAILURES_BEFORE_PAUSE = 10;
const FAILURE_WINDOW_MS = 15 * 60_000;
export const PAUSE_MS = 5 * 60_000;

export const SIGN_IN_PAUSED_MESSAGE = `Too many failed sign-ins for this account. Try again in ${PAUSE_MS / 60_000} minutes, or reset your password.`;

const SIGN_IN_PATH = '/sign-in/email';
const CHANGE_PASSWORD_PATH = '/change-password';

export const failureKey = (email: string) =>
  `sign-in-failures:${createHash('sha256').update(email.trim().toLowerCase()).digest('hex')}`;

type Deps = { db: AppDb; mailer: Mailer; logger: Logger; appUrl: string };

const emailOf = (body: unknown) => {
  const email = (body as { email?: unknown } | undefined)?.email;
  return typeof email === 'string' ? email : null;
};

/** How long password tries for `email` are paused (0 or less: not paused). */
export async function passwordTriesPausedForMs(db: AppDb, email: string): Promise<number> {
  const [row] = await db
    .select()
    .from(rateLimit)
    .where(eq(rateLimit.key, failureKey(email)));
  return row && row.count >= FAILURES_BEFORE_PAUSE ? row.lastRequest + PAUSE_MS - Date.now() : 0;
}

/** Counts a wrong password for `email` (a sign-in's, or one confirming an account change); answers the count in the window. */
export async function countWrongPassword(db: AppDb, email: string): Promise<number> {
  const now = Date.now();
  const [counted] = await db
    .insert(rateLimit)
    .values({ id: randomUUID(), key: failureKey(email), count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimit.key,
      set: {
        count: sql`case when ${rateLimit.lastRequest} < ${now - FAILURE_WINDOW_MS} then 1 else ${rateLimit.count} + 1 end`,
        lastRequest: now,
      },
    })
    .returning({ count: rateLimit.count });
  return counted?.count ?? 0;
}

/** The right password: the count starts again. */
export async function forgetWrongPasswords(db: AppDb, email: string): Promise<void> {
  await db.delete(rateLimit).where(eq(rateLimit.key, failureKey(email)));
}

export function signInThrottle(deps: Deps): BetterAuthPlugin {
  const { db } = deps;
  /** Sign-in's pause, answered the same wherever a password is tried. */
  const refuseIfPaused = async (email: string) => {
    const waitMs = await passwordTriesPausedForMs(db, email);
    if (waitMs > 0) {
      throw new APIError(
        'TOO_MANY_REQUESTS',
        { code: 'SIGN_IN_PAUSED', message: SIGN_IN_PAUSED_MESSAGE },
        { 'Retry-After': String(Math.ceil(waitMs / 1000)) },
      );
    }
  };
  /** Counts a wrong password; the one that starts the pause mails the owner (if there is one). */
  const countAndTell = async (email: string, findOwnerEmail: () => Promise<string | null>) => {
    if ((await countWrongPassword(db, email)) !== FAILURES_BEFORE_PAUSE) return;
    const to = await findOwnerEmail();
    if (!to) return;
    // In the background: the answer must not wait on the mail server (nor differ for an unknown email).
    void deps.mailer
      .send(signInBurstMail({ to, url: deps.appUrl, failures: FAILURES_BEFORE_PAUSE }))
      .catch((error) => deps.logger.error('the failed sign-ins mail could not be sent', { error }));
  };
  return {
    id: 'sign-in-throttle',
    hooks: {
      before: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const email = emailOf(ctx.body);
            if (email) await refuseIfPaused(email);
          }),
        },
        {
          // The session's account (no session: better-auth answers 401 itself).
          matcher: (ctx) => ctx.path === CHANGE_PASSWORD_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const current = await getSessionFromCtx(ctx);
            if (current) await refuseIfPaused(current.user.email);
          }),
        },
      ],
      after: [
        {
          matcher: (ctx) => ctx.path === SIGN_IN_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            const email = emailOf(ctx.body);
            if (!email) return;
            const returned = ctx.context.returned;
            if (!isAPIError(returned)) {
              await forgetWrongPasswords(db, email);
              return;
            }
            if (returned.statusCode !== 401) return; // a pause or a bad request: not a wrong password
            await countAndTell(email, async () => {
              const owner = await ctx.context.internalAdapter.findUserByEmail(email.toLowerCase());
              return owner?.user.email ?? null;
            });
          }),
        },
        {
          matcher: (ctx) => ctx.path === CHANGE_PASSWORD_PATH,
          handler: createAuthMiddleware(async (ctx) => {
            // The session read before the change (the change may have ended it).
            const current = await getSessionFromCtx(ctx);
            if (!current) return;
            const email = current.user.email;
            const returned = ctx.context.returned;
            if (!isAPIError(returned)) {
              await forgetWrongPasswords(db, email);
              return;
            }
            // Only a wrong current password counts: not a pause, a short new password or a missing field.
            if ((returned.body as { code?: unknown } | undefined)?.code !== 'INVALID_PASSWORD') return;
            await countAndTell(email, async () => email);
          }),
        },
      ],
    },
  };
}
