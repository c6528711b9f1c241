// The account's payment customer, made on first need by whoever gets there first: account setup
// after sign-up, or the checkout if that has not run yet. Every caller answers the stored one.
import { and, eq, isNull } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { profiles } from '../db/schema';
import { readOrCreateProfile } from '../profiles/profiles';
import type { PaymentProvider } from './payment-provider';

/** The user's customer id: the stored one, or a new one (its profile made too if missing). */
export async function ensureCustomer(
  db: AppDb,
  payments: PaymentProvider,
  user: { id: string; email: string },
): Promise<string> {
  const profile = await readOrCreateProfile(db, user.id);
  if (profile?.stripeCustomerId) return profile.stripeCustomerId;
  const { customerId } = await payments.createCustomer({ userId: user.id, email: user.email });
  // A concurrent call may have stored one first: keep that one.
  await db
    .update(profiles)
    .set({ stripeCustomerId: customerId })
    .where(and(eq(profiles.userId, user.id), isNull(profiles.stripeCustomerId)));
  return (await readOrCreateProfile(db, user.id))?.stripeCustomerId ?? customerId;
}
