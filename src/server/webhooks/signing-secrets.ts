// Each account's webhook signing secret, in the Standard Webhooks format (`whsec_` + base64 of 24
// random bytes): made on first use (the first read, or the first delivery), replaced by a rotation.
// It is kept as it is, not hashed: every delivery signs with it (HMAC-SHA256).
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AppDb } from '../db/client';

type Rows<T> = { rows: T[] };

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/**
 * The account's secret, made now if it has none. Two first uses at once agree on one row: the one
 * whose insert lost waits for the winner's commit, which its statement's snapshot may not show yet,
 * so it reads once more.
 */
export async function webhookSecretOf(db: AppDb, userId: string): Promise<string> {
  for (let look = 0; look < 2; look++) {
    const { rows } = (await db.execute(sql`
      with made as (
        insert into webhook_secrets (user_id, secret) values (${userId}, ${newWebhookSecret()})
        on conflict (user_id) do nothing
        returning secret)
      select secret from made union all select secret from webhook_secrets where user_id = ${userId}
      limit 1`)) as Rows<{ secret: string }>;
    const secret = rows[0]?.secret;
    if (secret) return secret;
  }
  throw new Error(`no webhook secret for user ${userId}`);
}

/** A new secret for the account; deliveries signed from now on use it, and the old one verifies nothing more. */
export async function rotateWebhookSecret(db: AppDb, userId: string): Promise<string> {
  const secret = newWebhookSecret();
  await db.execute(sql`
    insert into webhook_secrets (user_id, secret) values (${userId}, ${secret})
    on conflict (user_id) do update set secret = excluded.secret, updated_at = now()`);
  return secret;
}
