// A new account survives a failing mail server: the sign-up succeeds, the profile and customer
// exist, the mail job waits for its retry, and nothing claims the mail was sent.
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/contract/accounts';
import { enqueueUnfinishedAccountSetups } from '../../src/server/accounts/account-setup';
import { profiles, user } from '../../src/server/db/schema';
import { QUEUE_NAMES } from '../../src/server/jobs/queue';
import { TestClient } from '../support/http-client';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';

/** A port on which nothing listens. */
async function closedPort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('account setup with a failing mail server', () => {
  let backend: TestBackend;

  /** The account's setup job, once its first attempt has failed and it waits for a retry. */
  async function setupAwaitingRetry(email: string) {
    const [account] = await backend.database.db.select().from(user).where(eq(user.email, email));
    return eventually(async () => {
      const { rows } = await backend.database.executeSql(
        `select state, output from pgboss.job where name = $1 and data->>'userId' = $2`,
        [QUEUE_NAMES.accountSetup, account?.id],
      );
      return rows.find((r) => r.state === 'retry');
    });
  }

  beforeAll(async () => {
    backend = await createTestBackend({ env: { SMTP_URL: `smtp://127.0.0.1:${await closedPort()}` } });
  });
  afterAll(() => backend.stop());

  it('keeps the account, sets up the customer, and retries the mail', async () => {
    const browser = new TestClient(backend.app, backend.config.appUrl);
    const email = 'unlucky@example.com';
    expect((await browser.signUp(email)).status).toBe(200);
    expect((await browser.get<Profile>('/api/profile')).body).toMatchObject({ tokens: 20, emailVerified: false });

    const retrying = await setupAwaitingRetry(email);
    const [account] = await backend.database.db.select().from(user).where(eq(user.email, email));
    expect(JSON.stringify(retrying.output)).toContain('ECONNREFUSED');
    const [profile] = await backend.database.db
      .select()
      .from(profiles)
      .where(eq(profiles.userId, account?.id as string));
    expect(profile?.stripeCustomerId).toMatch(/^cus_local_/);
    expect(profile?.verificationEmailSentAt).toBeNull();
  });

  it('tells the user when a resend cannot be handed over, and lets them try again', async () => {
    const browser = new TestClient(backend.app, backend.config.appUrl);
    await browser.signUp('resend.fails@example.com');
    await setupAwaitingRetry('resend.fails@example.com'); // its own attempt is over; the next is 5 s away
    const response = await browser.post<{ error: string }>('/api/profile/verification-email');
    expect(response.status).toBe(502);
    expect(response.body.error).toBe('We could not send the email right now. Please try again in a moment.');
    const again = await browser.post('/api/profile/verification-email');
    expect(again.status).toBe(502); // not 429: the failed send did not start the cooldown
  });
});

describe('unfinished setups', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  it('are queued again when a worker starts', async () => {
    const browser = new TestClient(backend.app, backend.config.appUrl);
    await browser.signUp('left.behind@example.com');
    const customer = async () => (await browser.get<Profile>('/api/profile')).body.stripeCustomerId;
    await eventually(customer);
    // As if the first setup never ran: no customer.
    await backend.database.db.update(profiles).set({ stripeCustomerId: null });
    expect(await customer()).toBeNull();
    expect(await enqueueUnfinishedAccountSetups(backend.database.db, backend.queue)).toBeGreaterThanOrEqual(1);
    expect(await eventually(customer)).toMatch(/^cus_local_/);
  });
});
