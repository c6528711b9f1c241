// Sending the verification mail, at most once a minute per user whatever the client does: the
// send time is claimed atomically in the database before the mail goes out, and given back if
// the mail could not be handed over.
import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import { VERIFICATION_RESEND_COOLDOWN_SECONDS } from '../../contract/accounts';
import { type Auth, verificationLink } from '../auth/auth';
import type { AppDb } from '../db/client';
import { profiles } from '../db/schema';
import type { Mailer } from '../mail/mailer';
import { verificationMail } from '../mail/templates';

export type SendResult = { sent: true } | { sent: false; retryAfterSeconds: number };

export async function sendVerificationMail(
  deps: { db: AppDb; auth: Auth; mailer: Mailer },
  account: { id: string; email: string },
  options: { onlyIfNeverSent?: boolean } = {},
): Promise<SendResult> {
  const { db } = deps;
  const cooldownOver = lte(
    profiles.verificationEmailSentAt,
    sql`now() - make_interval(secs => ${VERIFICATION_RESEND_COOLDOWN_SECONDS})`,
  );
  const [previous] = await db
    .select({ sentAt: profiles.verificationEmailSentAt })
    .from(profiles)
    .where(eq(profiles.userId, account.id));
  const claimed = await db
    .update(profiles)
    .set({ verificationEmailSentAt: sql`now()` })
    .where(
      and(
        eq(profiles.userId, account.id),
        options.onlyIfNeverSent
          ? isNull(profiles.verificationEmailSentAt)
          : or(isNull(profiles.verificationEmailSentAt), cooldownOver),
      ),
    )
    .returning({ sentAt: profiles.verificationEmailSentAt });
  if (claimed.length === 0) {
    const [row] = await db
      .select({
        wait: sql<number>`ceil(${VERIFICATION_RESEND_COOLDOWN_SECONDS} - extract(epoch from now() - ${profiles.verificationEmailSentAt}))`,
      })
      .from(profiles)
      .where(eq(profiles.userId, account.id));
    return { sent: false, retryAfterSeconds: Math.max(1, Number(row?.wait ?? VERIFICATION_RESEND_COOLDOWN_SECONDS)) };
  }
  try {
    const url = await verificationLink(deps.auth, account);
    await deps.mailer.send(verificationMail({ to: account.email, url }));
    return { sent: true };
  } catch (error) {
    // Not sent: give the claim back so that the user (or the job's retry) may try again now.
    await db
      .update(profiles)
      .set({ verificationEmailSentAt: previous?.sentAt ?? null })
      .where(eq(profiles.userId, account.id));
    throw error;
  }
}
