// Purchases through the built-in local checkout: the server's purchase rules and messages, its own
// package table, and a paid session credited exactly once however often it is confirmed.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PACKAGES } from '../../src/contract/packages';
import { setFlag } from '../../src/server/admin/commands';
import { fulfilPayment } from '../../src/server/billing/fulfilment';
import { ledger, payments, user } from '../../src/server/db/schema';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { tokensOf, verifiedUser } from '../support/tool-fixtures';

const [pack500] = TOKEN_PACKAGES;
if (!pack500) throw new Error('no packages');

describe('buying tokens with the local checkout', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  const checkout = (client: TestClient, body: Record<string, unknown> = { priceId: pack500.id }) =>
    client.post<{ id: string; url: string; error?: string }>('/api/create-checkout-session', body);

  it('lists the local packages to anyone, with the ids the checkout accepts', async () => {
    const listed = await new TestClient(backend.app, backend.config.appUrl).get<{ packages: { id: string }[] }>(
      '/api/packages',
    );
    expect(listed.status).toBe(200);
    expect(listed.body.packages).toEqual(
      TOKEN_PACKAGES.map(({ id, name, tokens, priceCents, features }) => ({ id, name, tokens, priceCents, features })),
    );
    expect(listed.body.packages.map((p) => p.id)).toEqual(['price_local_500', 'price_local_1100', 'price_local_2400']);
  });

  it('sells a package: the checkout page, Pay, and 500 more tokens, credited once', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const session = await checkout(client, { priceId: pack500.id, userId: id, userEmail: 'ignored@example.com' });
    expect(session.status).toBe(200);
    expect(session.body.url).toBe(`/checkout/local/${session.body.id}`);

    const pageHtml = await client.get<string>(session.body.url);
    expect(pageHtml.status).toBe(200);
    expect(pageHtml.body).toContain('Test mode');
    // Dark as the app is, when the browser asks for it (issue 38).
    expect(pageHtml.body).toContain('color-scheme:light dark');
    expect(pageHtml.body).toContain('@media (prefers-color-scheme:dark)');
    expect(pageHtml.body).toContain('500 Tokens');
    expect(pageHtml.body).toContain('$5.00');

    const pays = await Promise.all(Array.from({ length: 10 }, () => client.post(`${session.body.url}/pay`)));
    for (const pay of pays) {
      expect(pay.status).toBe(303);
      expect(pay.headers.get('location')).toBe(`${backend.config.appUrl}/tokens?checkout=success`);
    }
    expect(await tokensOf(client)).toBe(520);
    const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    expect(rows.filter((r) => r.reason === 'purchase').map((r) => [r.delta, r.reference])).toEqual([
      [500, session.body.id],
    ]);
    const history = await client.get<{ purchases: { id: string; status: string; tokens: number; amount: string }[] }>(
      '/api/purchases',
    );
    expect(history.body.purchases).toEqual([
      expect.objectContaining({ id: session.body.id, status: 'paid', tokens: 500, amount: '$5.00' }),
    ]);
    expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
  });

  it('credits nothing for a canceled checkout, which cannot be paid afterwards', async () => {
    const { client } = await verifiedUser(backend, 20);
    const session = await checkout(client);
    const cancel = await client.post(`${session.body.url}/cancel`);
    expect(cancel.headers.get('location')).toBe(`${backend.config.appUrl}/tokens?checkout=canceled`);
    const pay = await client.post(`${session.body.url}/pay`);
    expect(pay.headers.get('location')).toBe(`${backend.config.appUrl}/tokens?checkout=canceled`);
    expect(await tokensOf(client)).toBe(20);
  });

  it('expires a checkout left open for an hour: shown as expired, and it cannot be paid', async () => {
    const { client } = await verifiedUser(backend, 20);
    const abandoned = await checkout(client);
    const late = await checkout(client);
    const fresh = await checkout(client);
    const anHourAgo = new Date(Date.now() - 60 * 60 * 1000 - 1000);
    for (const session of [abandoned, late]) {
      await backend.database.db
        .update(payments)
        .set({ createdAt: anHourAgo })
        .where(eq(payments.sessionId, session.body.id));
    }

    const page = await client.get<string>(late.body.url);
    expect(page.body).toContain('This checkout expired an hour after it was opened. Nothing was charged.');
    const pay = await client.post<string>(`${late.body.url}/pay`);
    expect(pay.body).toContain('Checkout expired');
    expect(await tokensOf(client)).toBe(20);

    const history = await client.get<{ purchases: { id: string; status: string }[] }>('/api/purchases');
    const statusOf = (id: string) => history.body.purchases.find((p) => p.id === id)?.status;
    expect([statusOf(abandoned.body.id), statusOf(late.body.id), statusOf(fresh.body.id)]).toEqual([
      'expired',
      'expired',
      'open',
    ]);
    // Paying the fresh one still works.
    await client.post(`${fresh.body.url}/pay`);
    expect(await tokensOf(client)).toBe(520);
  });

  it('cancels an open checkout from the history: own only, again and again the same, never paid afterwards', async () => {
    const owner = await verifiedUser(backend, 20);
    const stranger = await verifiedUser(backend, 20);
    const session = await checkout(owner.client);
    type Listed = { purchases: { id: string; status: string; expiresAt: string | null; createdAt: string }[] };
    const listed = (await owner.client.get<Listed>('/api/purchases')).body.purchases[0];
    expect(listed?.status).toBe('open');
    // An open checkout says when it ends: an hour after it opened.
    expect(Date.parse(listed?.expiresAt ?? '') - Date.parse(listed?.createdAt ?? '')).toBe(60 * 60 * 1000);

    const cancelPath = `/api/purchases/${session.body.id}/cancel`;
    expect((await stranger.client.post(cancelPath)).status).toBe(404);
    expect((await owner.client.post('/api/purchases/cs_local_nothing/cancel')).status).toBe(404);
    expect(
      (await owner.client.request('POST', cancelPath, { headers: { origin: 'https://evil.example' } })).status,
    ).toBe(403);
    expect(
      (await backend.database.db.select().from(payments).where(eq(payments.sessionId, session.body.id)))[0]?.status,
    ).toBe('open');

    const answers = await Promise.all([owner.client.post(cancelPath), owner.client.post(cancelPath)]);
    for (const answer of [...answers, await owner.client.post(cancelPath)]) {
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ purchase: { id: session.body.id, status: 'canceled', expiresAt: null } });
    }
    // Its page and its Pay button are over; nothing is credited.
    expect((await owner.client.get<string>(session.body.url)).body).toContain('This checkout is already canceled.');
    const pay = await owner.client.post(`${session.body.url}/pay`);
    expect(pay.headers.get('location')).toBe(`${backend.config.appUrl}/tokens?checkout=canceled`);
    // Even a confirmation that reached the fulfilment credits nothing.
    expect(await fulfilPayment(backend.database.db, session.body.id)).toMatchObject({
      credited: false,
      canceled: true,
    });
    expect(await tokensOf(owner.client)).toBe(20);
    expect((await owner.client.get<Listed>('/api/purchases')).body.purchases[0]?.status).toBe('canceled');
  });

  it('answers a cancel of a paid checkout with 409 and of an expired one as expired, changing neither', async () => {
    const { client } = await verifiedUser(backend, 20);
    const paid = await checkout(client);
    await client.post(`${paid.body.url}/pay`);
    const refused = await client.post<{ error: string }>(`/api/purchases/${paid.body.id}/cancel`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe('This checkout was already paid: its tokens are in your balance.');
    const old = await checkout(client);
    await backend.database.db
      .update(payments)
      .set({ createdAt: new Date(Date.now() - 60 * 60 * 1000 - 1000) })
      .where(eq(payments.sessionId, old.body.id));
    const expired = await client.post(`/api/purchases/${old.body.id}/cancel`);
    expect(expired.status).toBe(200);
    expect(expired.body).toMatchObject({ purchase: { status: 'expired' } });
    expect(await tokensOf(client)).toBe(520);
    expect((await client.post('/api/purchases/x/cancel')).status).toBe(404);
  });

  it("keeps one user's checkout from another, and from other origins", async () => {
    const owner = await verifiedUser(backend, 20);
    const stranger = await verifiedUser(backend, 20);
    const session = await checkout(owner.client);
    expect((await stranger.client.get(session.body.url)).status).toBe(404);
    expect((await stranger.client.post(`${session.body.url}/pay`)).status).toBe(404);
    const forged = await owner.client.request('POST', `${session.body.url}/pay`, {
      headers: { origin: 'https://evil.example' },
    });
    expect(forged.status).toBe(403);
    expect(await tokensOf(owner.client)).toBe(20);
  });

  it('applies the purchase rules with the spec messages and sells only its own packages', async () => {
    expect((await checkout(new TestClient(backend.app, backend.config.appUrl))).status).toBe(401);

    const unverified = await verifiedUser(backend, 20);
    await backend.database.db.update(user).set({ emailVerified: false }).where(eq(user.id, unverified.id));
    const a = await checkout(unverified.client);
    expect([a.status, a.body.error]).toEqual([403, 'Please verify your email before making a purchase.']);

    const disputed = await verifiedUser(backend, 20);
    await setFlag(backend.database.db, disputed.email, 'dispute', true);
    const b = await checkout(disputed.client);
    expect([b.status, b.body.error]).toEqual([403, 'You cannot make a purchase. Please contact support.']);

    const fraud = await verifiedUser(backend, 20);
    await setFlag(backend.database.db, fraud.email, 'fraud', true);
    const f = await checkout(fraud.client);
    expect([f.status, f.body.error]).toEqual([403, 'You cannot make a purchase. Please contact support.']);

    const buyer = await verifiedUser(backend, 20);
    const unknown = await checkout(buyer.client, { priceId: 'price_free_tokens' });
    expect([unknown.status, unknown.body.error]).toEqual([400, 'priceId: is not one of our token packages']);
    const other = await checkout(buyer.client, { priceId: pack500.id, userId: 'someone-else' });
    expect(other.status).toBe(403);
    const made = await backend.database.db.select().from(payments).where(eq(payments.userId, buyer.id));
    expect(made).toEqual([]);
  });

  it('answers create-stripe-customer with the customer made at sign-up', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const first = await client.post<{ customerId: string }>('/api/create-stripe-customer', {
      userId: id,
      email: 'x@y.z',
    });
    const again = await client.post<{ customerId: string }>('/api/create-stripe-customer', { userId: id });
    expect(first.body.customerId).toMatch(/^cus_local_/);
    expect(again.body.customerId).toBe(first.body.customerId);
  });
});
