// Sending the verification mail, at most once a minute per user whatever the client does: the
// send time is claimed atomically in the database before the mail goes out, and given back if
// the mail could not be handed over.
import { sql } from 'drizzle-orm';
import { VERIFICATION_RESEND_COOLDOWN_SECONDS } from '../../contract/accounts';
import { type Auth, verificationLink } from '../auth/auth';
import type { AppDb } from '../db/client';
import type { Mailer } from '../mail/mailer';
import { verificationMail } from '../mail/templates';

export type SendResult = { sent: true } | { sent: false; retryAfterSeconds: number };

type Claim = { claimed: string; previous: string | null };
/** db.execute's result is driver-specific; both node-postgres and PGlite carry `rows`. */
type Rows<T> = { rows: T[] };

/**
 * One statement: locks the row, and sets the send time to now() if the cooldown allows, returning
 * the time it replaced. Timestamps travel as text so that the give-back matches to the microsecond.
 */
async function claimSendSlot(db: AppDb, userId: string, onlyIfNeverSent: boolean): Promise<Claim | null> {
  const allowed = onlyIfNeverSent
    ? sql`old.sent_at is null`
    : sql`(old.sent_at is null or old.sent_at <= now() - make_interval(secs => ${VERIFICATION_RESEND_COOLDOWN_SECONDS}))`;
  const result = (await db.execute(sql`
    update profiles set verification_email_sent_at = now()
    from (select verification_email_sent_at as sent_at from profiles where user_id = ${userId} for update) old
    where profiles.user_id = ${userId} and ${allowed}
    returning profiles.verification_email_sent_at::text as claimed, old.sent_at::text as previous`)) as Rows<Claim>;
  return result.rows[0] ?? null;
}

async function secondsUntilAllowed(db: AppDb, userId: string): Promise<number> {
  const result = (await db.execute(sql`
    select ceil(${VERIFICATION_RESEND_COOLDOWN_SECONDS} - extract(epoch from now() - verification_email_sent_at)) as wait
    from profiles where user_id = ${userId}`)) as Rows<{ wait: unknown }>;
  const wait = Number(result.rows[0]?.wait ?? VERIFICATION_RESEND_COOLDOWN_SECONDS);
  return Math.max(1, Number.isFinite(wait) ? wait : VERIFICATION_RESEND_COOLDOWN_SECONDS);
}

export async function sendVerificationMail(
  deps: { db: AppDb; auth: Auth; mailer: Mailer },
  account: { id: string; email: string },
  options: { onlyIfNeverSent?: boolean } = {},
): Promise<SendResult> {
  const { db } = deps;
  const claim = await claimSendSlot(db, account.id, options.onlyIfNeverSent ?? false);
  if (!claim) return { sent: false, retryAfterSeconds: await secondsUntilAllowed(db, account.id) };
  try {
    const url = await verificationLink(deps.auth, account);
    await deps.mailer.send(verificationMail({ to: account.email, url }));
    return { sent: true };
  } catch (error) {
    // Not sent: give the slot back (only if it is still ours) so that a retry may go at once.
    await db.execute(sql`
      update profiles set verification_email_sent_at = ${claim.previous}::timestamptz
      where user_id = ${account.id} and verification_email_sent_at = ${claim.claimed}::timestamptz`);
    throw error;
  }
}
