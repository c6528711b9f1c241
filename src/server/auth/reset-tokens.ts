// Verification tokens (password reset, Google sign-in state) are kept only as SHA-256 hashes, so a
// leaked table or backup holds no usable link. Reset rows keep a readable prefix so that asking for
// a new link can end the user's earlier ones: only the newest mailed link works.
// Decision record: docs/decisions/014-auth-tokens.md.
import { createHash } from 'node:crypto';
import { and, eq, like, lte, ne } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { verification } from '../db/schema';

/** better-auth's identifier of a reset row: this prefix, then the token from the mail. */
const RESET_PREFIX = 'reset-password:';

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/** better-auth's `verification.storeIdentifier`. */
export const VERIFICATION_STORAGE = {
  default: 'hashed',
  overrides: {
    [RESET_PREFIX]: { hash: async (identifier: string) => `${RESET_PREFIX}${sha256(identifier)}` },
  },
} as const;

type VerificationRow = { id: string; identifier: string; value: string; createdAt: Date };

/**
 * better-auth's `databaseHooks.verification.create.after`: a new reset row ends the user's older
 * ones (the value of a reset row is the user's id). Two requests racing leave the newer.
 */
export async function endEarlierResetLinks(db: AppDb, created: VerificationRow) {
  if (!created.identifier.startsWith(RESET_PREFIX)) return;
  await db
    .delete(verification)
    .where(
      and(
        like(verification.identifier, `${RESET_PREFIX}%`),
        eq(verification.value, created.value),
        ne(verification.id, created.id),
        lte(verification.createdAt, created.createdAt),
      ),
    );
}
