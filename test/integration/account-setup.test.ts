// The account setup after sign-up (payment customer, first verification mail) waits as a row in
// `account_setups` (decision 045): done once, retried with backoff when a step fails, run again
// when the worker that held it died, and queued again at a worker start when it never finished.
import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/contract/accounts';
import {
  ACCOUNT_SETUP_TRIES,
  claimNextAccountSetup,
  enqueueUnfinishedAccountSetups,
} from '../../src/server/accounts/account-setup';
import { accountSetups, mailOutbox, profiles, user, workerLeases } from '../../src/server/db/schema';
import { TestClient } from '../support/http-client';
import {
  createTestBackend,
  createTestDatabase,
  eventually,
  type TestBackend,
  type TestDatabase,
} from '../support/test-backend';

/** A port on which nothing listens. */
async function closedPort() {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function userIdOf(backend: TestBackend, email: string): Promise<string> {
  const [account] = await backend.database.db.select({ id: user.id }).from(user).where(eq(user.email, email));
  if (!account) throw new Error(`no user ${email}`);
  return account.id;
}

const setupOf = async ({ database }: { database: Pick<TestDatabase, 'db'> }, userId: string) =>
  (await database.db.select().from(accountSetups).where(eq(accountSetups.userId, userId)))[0];

/**
 * Signs `email` up and waits until the worker has run that setup once (done, or failed and waiting
 * for its retry). Setups are taken oldest due first, so every setup due before it was taken by then:
 * what a test checks afterwards is what a later round of the worker left, without a pause.
 */
async function anotherSetupRun(backend: TestBackend, email: string) {
  expect((await new TestClient(backend.app, backend.config.appUrl).signUp(email)).status).toBe(200);
  const id = await userIdOf(backend, email);
  await eventually(async () => {
    const setup = await setupOf(backend, id);
    return setup === undefined || (setup.attempts > 0 && setup.workerId === null);
  });
}

describe('account setup', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  it('is done once after sign-up: one customer, one verification mail, and its row gone', async () => {
    const browser = new TestClient(backend.app, backend.config.appUrl);
    const email = 'set.up.once@example.com';
    expect((await browser.signUp(email)).status).toBe(200);
    const id = await userIdOf(backend, email);
    await eventually(async () => (await setupOf(backend, id)) === undefined);
    const [profile] = await backend.database.db.select().from(profiles).where(eq(profiles.userId, id));
    expect(profile?.stripeCustomerId).toMatch(/^cus_local_/);
    expect(profile?.verificationEmailSentAt).not.toBeNull();
    // Nothing runs it again: once a later setup has run, still the one mail.
    await anotherSetupRun(backend, 'set.up.later@example.com');
    const mails = await backend.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mails).toHaveLength(1);
  });

  it('is run again when the worker that held it died mid-run', async () => {
    const browser = new TestClient(backend.app, backend.config.appUrl);
    const email = 'crashed.setup@example.com';
    expect((await browser.signUp(email)).status).toBe(200);
    const id = await userIdOf(backend, email);
    await eventually(async () => (await setupOf(backend, id)) === undefined);
    // As if its run had been taken by a worker that then died (no lease left), before the customer
    // and the mail: due again at once, not after the run's 15-minute expiry.
    await backend.database.db
      .update(profiles)
      .set({ stripeCustomerId: null, verificationEmailSentAt: null })
      .where(eq(profiles.userId, id));
    await backend.database.db.delete(mailOutbox).where(eq(mailOutbox.to, email));
    await backend.database.db.insert(accountSetups).values({
      userId: id,
      attempts: 1,
      workerId: randomUUID(),
      runAfter: new Date(Date.now() + 15 * 60_000),
    });
    const customer = async () => (await browser.get<Profile>('/api/profile')).body.stripeCustomerId;
    expect(await eventually(customer)).toMatch(/^cus_local_/);
    await eventually(async () => (await setupOf(backend, id)) === undefined);
    expect(await backend.database.db.select().from(mailOutbox).where(eq(mailOutbox.to, email))).toHaveLength(1);
  });
});

describe('claiming a setup', () => {
  // A database and no backend: no worker of its own takes the setup between the test's claims.
  let backend: { database: TestDatabase };
  const userId = 'claimed-setup-user';
  beforeAll(async () => {
    backend = { database: await createTestDatabase() };
    await backend.database.db.insert(user).values({ id: userId, name: 'C', email: 'claimed@example.com' });
  });
  afterAll(() => backend.database.drop());

  const claim = (workerId: string) => claimNextAccountSetup(backend.database.db, workerId, 30);

  it('gives a due setup to one worker, and a held one to nobody until its worker is gone', async () => {
    await backend.database.db.insert(accountSetups).values({ userId });
    const [a, b] = [randomUUID(), randomUUID()];
    await backend.database.db.insert(workerLeases).values([
      { id: a, host: 'a', pid: 1 },
      { id: b, host: 'b', pid: 2 },
    ]);
    const claims = await Promise.all([claim(a), claim(b)]);
    expect(claims.filter((c) => c !== null)).toEqual([{ userId, attempt: 1 }]);
    expect(await claim(b)).toBeNull(); // held by a live worker
    const holder = (await setupOf(backend, userId))?.workerId as string;
    // Its worker's lease lapses: due again, as the next attempt.
    await backend.database.db
      .update(workerLeases)
      .set({ heartbeatAt: new Date(Date.now() - 60_000) })
      .where(eq(workerLeases.id, holder));
    const other = holder === a ? b : a;
    expect(await claim(other)).toEqual({ userId, attempt: 2 });
    // Held by a live worker past its expiry (a hung run): due again too.
    await backend.database.db
      .update(accountSetups)
      .set({ runAfter: new Date(Date.now() - 1_000) })
      .where(eq(accountSetups.userId, userId));
    expect(await claim(holder)).toEqual({ userId, attempt: 3 });
  });
});

describe('account setup with a failing mail server', () => {
  let backend: TestBackend;

  /** The account's setup, once its first attempt has failed and it waits for a retry. */
  async function setupAwaitingRetry(email: string) {
    const id = await userIdOf(backend, email);
    return eventually(async () => {
      const setup = await setupOf(backend, id);
      return setup?.lastError && setup.workerId === null ? setup : null;
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
    expect(retrying.lastError).toContain('ECONNREFUSED');
    // The retry waits 5-10 s after the first run.
    expect(retrying.runAfter.getTime()).toBeGreaterThan(Date.now() + 2_000);
    expect(retrying.attempts).toBe(1);
    const [profile] = await backend.database.db.select().from(profiles).where(eq(profiles.userId, retrying.userId));
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

  it('stops after its last try, keeping the error', async () => {
    const browser = new TestClient(backend.app, backend.config.appUrl);
    const email = 'out.of.tries@example.com';
    await browser.signUp(email);
    const { userId } = await setupAwaitingRetry(email);
    // Its last try is due now.
    await backend.database.db
      .update(accountSetups)
      .set({ attempts: ACCOUNT_SETUP_TRIES - 1, runAfter: new Date(Date.now() - 1_000) })
      .where(eq(accountSetups.userId, userId));
    const last = await eventually(async () => {
      const setup = await setupOf(backend, userId);
      return setup?.attempts === ACCOUNT_SETUP_TRIES && setup.workerId === null ? setup : null;
    });
    expect(last.lastError).toContain('ECONNREFUSED');
    // Due no more, whatever its run_after says: a setup due after it is run, it is not.
    await backend.database.db
      .update(accountSetups)
      .set({ runAfter: new Date(Date.now() - 1_000) })
      .where(eq(accountSetups.userId, userId));
    await anotherSetupRun(backend, 'after.out.of.tries@example.com');
    expect((await setupOf(backend, userId))?.attempts).toBe(ACCOUNT_SETUP_TRIES);
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
    const id = await userIdOf(backend, 'left.behind@example.com');
    await eventually(async () => (await setupOf(backend, id)) === undefined);
    // As if the first setup never ran: no customer.
    await backend.database.db.update(profiles).set({ stripeCustomerId: null });
    expect(await customer()).toBeNull();
    expect(await enqueueUnfinishedAccountSetups(backend.database.db)).toBeGreaterThanOrEqual(1);
    expect(await eventually(customer)).toMatch(/^cus_local_/);
  });

  it('given up, are queued again from their first try; waiting, are left as they are', async () => {
    const browser = new TestClient(backend.app, backend.config.appUrl);
    const email = 'gave.up@example.com';
    await browser.signUp(email);
    const id = await userIdOf(backend, email);
    await eventually(async () => (await setupOf(backend, id)) === undefined);
    await backend.database.db.update(profiles).set({ stripeCustomerId: null }).where(eq(profiles.userId, id));
    // Waiting an hour: left waiting.
    const later = new Date(Date.now() + 3_600_000);
    await backend.database.db.insert(accountSetups).values({ userId: id, attempts: 3, runAfter: later });
    await enqueueUnfinishedAccountSetups(backend.database.db);
    expect(await setupOf(backend, id)).toMatchObject({ attempts: 3, runAfter: later });
    // Out of tries: queued again.
    await backend.database.db
      .update(accountSetups)
      .set({ attempts: ACCOUNT_SETUP_TRIES, lastError: 'the provider was down' })
      .where(eq(accountSetups.userId, id));
    await enqueueUnfinishedAccountSetups(backend.database.db);
    const customer = async () =>
      (await backend.database.db.select().from(profiles).where(eq(profiles.userId, id)))[0]?.stripeCustomerId;
    expect(await eventually(customer)).toMatch(/^cus_local_/);
    await eventually(async () => (await setupOf(backend, id)) === undefined);
  });
});
