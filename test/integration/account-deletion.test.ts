// Account deletion (issue 17): files and personal data go, the ledger keeps its rows under an
// anonymised user, and the deleted user cannot sign in; a stale session must sign in again first.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAccountSetup } from '../../src/server/accounts/account-setup';
import { FAILURES_BEFORE_PAUSE, SIGN_IN_PAUSED_MESSAGE } from '../../src/server/auth/sign-in-throttle';
import type { PaymentProvider } from '../../src/server/billing/payment-provider';
import { deletedEmails, files, jobs, ledger, payments, session, user } from '../../src/server/db/schema';
import { quietLogger } from '../../src/server/log';
import { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, pngBytes, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend();
});
afterAll(() => backend.stop());

describe('account deletion', () => {
  it('removes files, jobs and personal data, keeps anonymised ledger rows, and ends sign-in', async () => {
    const { client, email, id } = await verifiedUser(backend);
    const answer = await client.post<{ output: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes(40, 30)),
      scale: 2,
    });
    expect(answer.status).toBe(200);
    const stored = await backend.database.db.select().from(files).where(eq(files.userId, id));
    expect(stored).toHaveLength(2);
    const ledgerBefore = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));

    expect((await client.request('DELETE', '/api/account')).status).toBe(204);

    for (const file of stored) expect(await backend.storage.get(file.storageKey)).toBeNull();
    expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toEqual([]);
    expect(await backend.database.db.select().from(ledger).where(eq(ledger.userId, id))).toEqual(ledgerBefore);
    const [row] = await backend.database.db.select().from(user).where(eq(user.id, id));
    expect(row?.email).not.toContain(email.split('@')[0]);
    expect(row?.name).toBe('Deleted user');
    expect((await client.get('/api/profile')).status).toBe(401);
    const again = new TestClient(backend.app, backend.config.appUrl);
    expect((await again.signIn(email)).status).not.toBe(200);
  });

  it('ends the open checkouts of the local provider: none can be paid into the deleted account (issue 36)', async () => {
    const { client, id } = await verifiedUser(backend);
    const checkout = await client.post<{ id: string; url: string }>('/api/create-checkout-session', {
      priceId: 'price_local_1100',
    });
    expect(checkout.status).toBe(200);
    expect((await client.request('DELETE', '/api/account')).status).toBe(204);
    const [payment] = await backend.database.db.select().from(payments).where(eq(payments.userId, id));
    expect(payment?.status).toBe('expired');
    const paid = await client.request('POST', `${checkout.body.url}/pay`);
    expect(paid.status).toBe(404);
    expect(
      (await backend.database.db.select().from(ledger).where(eq(ledger.userId, id))).map((row) => row.reason),
    ).toEqual(['signup']);
  });

  it('gives no second sign-up bonus to an email whose account was deleted, and keeps no address (issue 36)', async () => {
    const { client, email } = await verifiedUser(backend);
    expect((await client.request('DELETE', '/api/account')).status).toBe(204);
    const kept = await backend.database.db.select().from(deletedEmails);
    expect(JSON.stringify(kept)).not.toContain(email.split('@')[0]);

    for (const spelling of [email, email.toUpperCase()]) {
      const again = new TestClient(backend.app, backend.config.appUrl);
      expect((await again.signUp(spelling)).status).toBe(200);
      expect(await tokensOf(again)).toBe(0);
      expect((await again.request('DELETE', '/api/account')).status).toBe(204);
    }
    // Another email still gets its bonus.
    expect(await tokensOf((await verifiedUser(backend)).client)).toBe(20);
  });

  it('makes no payment customer again for a deleted account when its setup runs later', async () => {
    const { client, id } = await verifiedUser(backend);
    expect((await client.request('DELETE', '/api/account')).status).toBe(204);
    let made = 0;
    const payments: PaymentProvider = {
      kind: 'local',
      createCustomer: async () => ({ customerId: `cus_again_${++made}` }),
      createCheckoutSession: async () => ({ sessionId: 'unused', url: 'unused' }),
      expireCheckoutSession: async () => {},
      deleteCustomer: async () => {},
    };
    await runAccountSetup(
      { db: backend.database.db, auth: backend.auth, mailer: backend.mailer, payments, logger: quietLogger() },
      id,
    );
    expect(made).toBe(0);
  });

  it('asks a session older than 10 minutes for the password, refuses a wrong one, and deletes with the right one (issue 38)', async () => {
    const { client, id } = await verifiedUser(backend);
    await backend.database.db
      .update(session)
      .set({ createdAt: sql`now() - interval '20 minutes'` })
      .where(eq(session.userId, id));
    const answer = await client.request<{ error: string; reauth: string }>('DELETE', '/api/account');
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      error: 'To delete your account, confirm it’s you: enter your password.',
      reauth: 'password',
    });
    const wrong = await client.request<{ error: string }>('DELETE', '/api/account', {
      body: { password: 'not it 12345' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('That password is not the one on your account. Check it and try again.');
    expect((await client.get('/api/profile')).status).toBe(200);
    expect((await backend.app.request('/api/account', { method: 'DELETE' })).status).not.toBe(204);

    const right = await client.request('DELETE', '/api/account', { body: { password: 'correct horse 42' } });
    expect(right.status).toBe(204);
    expect((await client.get('/api/profile')).status).toBe(401);
  });

  it('counts wrong passwords with the account’s failed sign-ins: a stolen session cannot guess it', async () => {
    const { client, id } = await verifiedUser(backend);
    await backend.database.db
      .update(session)
      .set({ createdAt: sql`now() - interval '20 minutes'` })
      .where(eq(session.userId, id));
    for (let i = 0; i < FAILURES_BEFORE_PAUSE; i++) {
      const wrong = await client.request('DELETE', '/api/account', { body: { password: `guess number ${i}` } });
      expect(wrong.status).toBe(400);
    }
    // Paused now, even for the right password, and so is a sign-in with it.
    const paused = await client.request<{ error: string }>('DELETE', '/api/account', {
      body: { password: 'correct horse 42' },
    });
    expect(paused.status).toBe(429);
    expect(paused.body.error).toBe(SIGN_IN_PAUSED_MESSAGE);
    expect((await client.get('/api/profile')).status).toBe(200);
    const [account] = await backend.database.db.select({ email: user.email }).from(user).where(eq(user.id, id));
    const signIn = await new TestClient(backend.app, backend.config.appUrl).request('POST', '/api/auth/sign-in/email', {
      body: { email: account?.email, password: 'correct horse 42' },
    });
    expect(signIn.status).toBe(429);
  });
});
