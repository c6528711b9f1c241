// The api_keys table: a user's keys, made, listed and revoked. The key itself is never stored
// (only its hash); the list never answers the hash.
import { and, count, desc, eq } from 'drizzle-orm';
import { API_KEYS_PER_ACCOUNT, type ApiKeySummary, type CreatedApiKey } from '../../contract/api-keys';
import { newApiKey } from '../auth/api-key-credential';
import type { AppDb } from '../db/client';
import { apiKeys, user } from '../db/schema';

/**
 * A new key for `userId`, or 'too-many' at API_KEYS_PER_ACCOUNT. The user's row is locked while
 * the keys are counted, so two requests at once cannot both make the 21st.
 */
export async function createApiKey(db: AppDb, userId: string, name: string): Promise<CreatedApiKey | 'too-many'> {
  return db.transaction(async (tx) => {
    await tx.select({ id: user.id }).from(user).where(eq(user.id, userId)).for('update');
    const [held] = await tx.select({ n: count() }).from(apiKeys).where(eq(apiKeys.userId, userId));
    if ((held?.n ?? 0) >= API_KEYS_PER_ACCOUNT) return 'too-many';
    const made = newApiKey();
    const [row] = await tx
      .insert(apiKeys)
      .values({ userId, name, prefix: made.prefix, keyHash: made.keyHash })
      .returning({ id: apiKeys.id, createdAt: apiKeys.createdAt });
    if (!row) throw new Error('the key was not stored');
    return { id: row.id, name, key: made.key, createdAt: row.createdAt.toISOString() };
  });
}

/** The user's keys, newest first. */
export async function listApiKeys(db: AppDb, userId: string): Promise<ApiKeySummary[]> {
  const rows = await db
    .select({
      id: apiKeys.id,
      name: apiKeys.name,
      prefix: apiKeys.prefix,
      createdAt: apiKeys.createdAt,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .where(eq(apiKeys.userId, userId))
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
  return rows.map((row) => ({
    ...row,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }));
}

/** Deletes the user's key `id`; false when the user has no such key (another's, or unknown). */
export async function revokeApiKey(db: AppDb, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(apiKeys)
    .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
    .returning({ id: apiKeys.id });
  return deleted.length > 0;
}
