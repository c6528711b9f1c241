// Deleted accounts' emails, kept only as keyed hashes (issue 36): deleting an account and signing
// up again with the same email must not earn a new sign-up bonus each time, and no deleted
// address may stay readable. The key is the auth secret, so the hashes cannot be tried against
// a list of addresses without it.
import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { deletedEmails } from '../db/schema';

const emailHash = (secret: string, email: string) =>
  createHmac('sha256', secret).update(email.trim().toLowerCase()).digest('hex');

export async function recordDeletedEmail(db: AppDb, secret: string, email: string): Promise<void> {
  await db
    .insert(deletedEmails)
    .values({ emailHash: emailHash(secret, email) })
    .onConflictDoNothing();
}

/** Whether an account with this email was deleted before. */
export async function emailDeletedBefore(db: AppDb, secret: string, email: string): Promise<boolean> {
  const rows = await db
    .select({ hash: deletedEmails.emailHash })
    .from(deletedEmails)
    .where(eq(deletedEmails.emailHash, emailHash(secret, email)));
  return rows.length > 0;
}
