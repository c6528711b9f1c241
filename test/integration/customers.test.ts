// The payment customer of an account: made once, whoever asks first (account setup, the checkout,
// POST /api/create-stripe-customer), and the same id for everyone after, even when they race.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/server/billing/customers';
import type { PaymentProvider } from '../../src/server/billing/payment-provider';
import { profiles, user } from '../../src/server/db/schema';
import { ensureProfile } from '../../src/server/profiles/profiles';
import { createTestDatabase, type TestDatabase } from '../support/test-backend';

/** A provider that numbers its customers and counts how many it made. */
function countingProvider() {
  let made = 0;
  const provider: PaymentProvider = {
    kind: 'local',
    createCustomer: async () => ({ customerId: `cus_test_${++made}` }),
    createCheckoutSession: async () => {
      throw new Error('not used');
    },
    expireCheckoutSession: async () => {},
    deleteCustomer: async () => {},
  };
  return { provider, made: () => made };
}

describe('ensureCustomer', () => {
  let database: TestDatabase;
  let users = 0;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  async function newUser() {
    const id = `customer-user-${++users}`;
    await database.db.insert(user).values({ id, name: id, email: `${id}@example.com` });
    return { id, email: `${id}@example.com` };
  }
  const storedCustomer = async (userId: string) =>
    (await database.db.select().from(profiles).where(eq(profiles.userId, userId)))[0]?.stripeCustomerId;

  it('makes the customer once and answers the stored one afterwards', async () => {
    const account = await newUser();
    await ensureProfile(database.db, account.id);
    const { provider, made } = countingProvider();
    const first = await ensureCustomer(database.db, provider, account);
    expect(await ensureCustomer(database.db, provider, account)).toBe(first);
    expect(await storedCustomer(account.id)).toBe(first);
    expect(made()).toBe(1);
  });

  it('creates the missing profile too (a sign-up whose profile step failed)', async () => {
    const account = await newUser();
    const customerId = await ensureCustomer(database.db, countingProvider().provider, account);
    expect(await storedCustomer(account.id)).toBe(customerId);
  });

  it('answers the same customer to callers that race, the first one stored', async () => {
    const account = await newUser();
    await ensureProfile(database.db, account.id);
    const { provider } = countingProvider();
    const answers = await Promise.all([1, 2, 3].map(() => ensureCustomer(database.db, provider, account)));
    const stored = await storedCustomer(account.id);
    expect(answers).toEqual([stored, stored, stored]);
  });
});
