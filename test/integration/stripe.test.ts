// Stripe payments against the fake Stripe on 127.0.0.1: what our customer and Checkout Session
// requests carry, and the signed webhook: a paid session is credited once however its events
// repeat or race, only what Stripe says (re-read) counts, forged or stale deliveries and foreign
// prices change nothing, and disputes and fraud warnings block purchases and tools.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/contract/accounts';
import { PURCHASE_MESSAGES, TOKEN_PACKAGES } from '../../src/contract/packages';
import { TOOL_MESSAGES } from '../../src/contract/tools';
import { unrefundedPayments } from '../../src/server/billing/account-payments';
import { ledger, payments, webhookEvents } from '../../src/server/db/schema';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { type FakeStripe, startFakeStripe } from '../support/fake-stripe';
import { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { tokensOf, verifiedUser } from '../support/tool-fixtures';

const PRICES = { 500: 'price_test_500', 1100: 'price_test_1100', 2400: 'price_test_2400' };
/** A real price in the Stripe account that is not one of our packages. */
const OTHER_PRICE = 'price_test_other';
const APP_URL = 'http://localhost:3000';

describe('Stripe payments', () => {
  let fake: FakeStripe;
  let backend: TestBackend;
  /** A built web app, so that a 404 cannot come from a missing one. */
  const webDistDir = mkdtempSync(path.join(os.tmpdir(), 'pp-dist-'));
  writeFileSync(path.join(webDistDir, 'index.html'), '<!doctype html><title>Picture Palette</title>');
  beforeAll(async () => {
    fake = await startFakeStripe({
      [PRICES[500]]: 500,
      [PRICES[1100]]: 1000,
      [PRICES[2400]]: 2000,
      [OTHER_PRICE]: 500,
    });
    backend = await createTestBackend({ env: { APP_URL, ...fake.env(PRICES) }, webDistDir });
  });
  afterAll(async () => {
    await backend?.stop();
    await fake?.stop();
    rmSync(webDistDir, { recursive: true, force: true });
  });
  afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

  const deliver = (payload: string, signature: string | null = fake.sign(payload)) =>
    backend.app.request('/api/webhooks/stripe', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
      body: payload,
    });
  const paymentRow = async (sessionId: string) =>
    (await backend.database.db.select().from(payments).where(eq(payments.sessionId, sessionId)))[0];
  const eventRecorded = async (eventId: string) =>
    (await backend.database.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, eventId))).length > 0;

  /** A verified user with a Stripe customer and an open checkout for the package of `size` tokens. */
  async function buyerWithCheckout(size: 500 | 1100 | 2400 = 500) {
    const buyer = await verifiedUser(backend, 20);
    const customer = await buyer.client.post<{ customerId: string }>('/api/create-stripe-customer', {
      userId: buyer.id,
    });
    const session = await buyer.client.post<{ id: string; url: string; error?: string }>(
      '/api/create-checkout-session',
      { priceId: PRICES[size], userId: buyer.id },
    );
    expect(session.status).toBe(200);
    return { ...buyer, customerId: customer.body.customerId, sessionId: session.body.id, url: session.body.url };
  }
  const completed = (sessionId: string, eventId?: string) =>
    fake.event(
      'checkout.session.completed',
      { id: sessionId, object: 'checkout.session', payment_status: 'paid' },
      eventId,
    );

  it('lists the packages with their Stripe price ids', async () => {
    const visitor = new TestClient(backend.app, APP_URL);
    const listed = await visitor.get<{ packages: unknown[] }>('/api/packages');
    expect(listed.status).toBe(200);
    expect(listed.body.packages).toEqual(
      TOKEN_PACKAGES.map((p) => ({
        id: PRICES[p.tokens as 500 | 1100 | 2400],
        name: p.name,
        tokens: p.tokens,
        priceCents: p.priceCents,
        features: p.features,
      })),
    );
  });

  it('creates the customer and a Checkout Session that carry the user, our price and the return URLs', async () => {
    fake.reset();
    const { id, email, customerId, sessionId, url, client } = await buyerWithCheckout(1100);
    expect(customerId).toMatch(/^cus_/);
    expect((await client.get<Profile>('/api/profile')).body.stripeCustomerId).toBe(customerId);
    const customerCalls = fake.requests.filter((r) => r.path === '/v1/customers');
    expect(customerCalls.length).toBeGreaterThanOrEqual(1);
    for (const call of customerCalls) expect(call.params).toEqual({ email, metadata: { userId: id } });

    const [create] = fake.requests.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    const payment = await paymentRow(sessionId);
    // The session ends an hour after it opens (Stripe's expires_at), as the local checkout does.
    const expiresAt = Number(create?.params.expires_at);
    expect(Math.abs(expiresAt - (Date.now() / 1000 + 3600))).toBeLessThan(120);
    expect(create?.params).toMatchObject({
      mode: 'payment',
      line_items: [{ price: PRICES[1100], quantity: '1' }],
      customer: customerId,
      client_reference_id: id,
      metadata: { userId: id, paymentId: payment?.id, priceId: PRICES[1100] },
      success_url: `${APP_URL}/tokens?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${APP_URL}/tokens?checkout=canceled`,
    });
    expect(url).toBe(`${fake.url}/c/pay/${sessionId}`);
    expect(payment).toMatchObject({ provider: 'stripe', packageId: PRICES[1100], tokens: 1100, amountCents: 1000 });
    expect(payment?.status).toBe('open');
  });

  it('sells only the configured prices and has no local checkout', async () => {
    const buyer = await verifiedUser(backend, 20);
    const local = await buyer.client.post<{ error: string }>('/api/create-checkout-session', {
      priceId: 'price_local_500',
    });
    expect([local.status, local.body.error]).toEqual([400, PURCHASE_MESSAGES.unknownPackage]);
    const other = await buyer.client.post<{ error: string }>('/api/create-checkout-session', { priceId: OTHER_PRICE });
    expect(other.status).toBe(400);
    expect(await backend.database.db.select().from(payments).where(eq(payments.userId, buyer.id))).toEqual([]);

    const { sessionId } = await buyerWithCheckout();
    expect((await buyer.client.get('/tokens')).status).toBe(200);
    expect((await buyer.client.get(`/checkout/local/${sessionId}`)).status).toBe(404);
    expect((await buyer.client.post(`/checkout/local/${sessionId}/pay`)).status).toBe(404);
  });

  it('credits a paid session once when the same event arrives 10 times', async () => {
    const { client, sessionId } = await buyerWithCheckout(500);
    fake.paySession(sessionId);
    const payload = completed(sessionId);
    const first = await Promise.all(Array.from({ length: 5 }, () => deliver(payload)));
    for (let i = 0; i < 5; i++) first.push(await deliver(payload));
    expect(first.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect(await tokensOf(client)).toBe(520);
    const rows = await backend.database.db.select().from(ledger).where(eq(ledger.reference, sessionId));
    expect(rows.map((r) => [r.reason, r.delta])).toEqual([['purchase', 500]]);
    const history = await client.get<{ purchases: { id: string; status: string; tokens: number }[] }>('/api/purchases');
    expect(history.body.purchases).toEqual([expect.objectContaining({ id: sessionId, status: 'paid', tokens: 500 })]);
  });

  it('credits once when two different events for one session race', async () => {
    const { client, sessionId } = await buyerWithCheckout(2400);
    fake.paySession(sessionId);
    const succeeded = fake.event('checkout.session.async_payment_succeeded', {
      id: sessionId,
      object: 'checkout.session',
    });
    const answers = await Promise.all([deliver(completed(sessionId)), deliver(succeeded)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    expect(await tokensOf(client)).toBe(2420);
  });

  it('takes events in any order and late: credited once, and a paid session stays paid', async () => {
    // The async success overtakes the completion.
    const reversed = await buyerWithCheckout(1100);
    fake.paySession(reversed.sessionId);
    const succeeded = fake.event('checkout.session.async_payment_succeeded', {
      id: reversed.sessionId,
      object: 'checkout.session',
    });
    expect((await deliver(succeeded)).status).toBe(200);
    expect(await tokensOf(reversed.client)).toBe(1120);
    expect((await deliver(completed(reversed.sessionId))).status).toBe(200);
    expect(await tokensOf(reversed.client)).toBe(1120);

    // Closing events that arrive after the payment (stale, or out of order) do not undo it.
    for (const type of ['checkout.session.expired', 'checkout.session.async_payment_failed']) {
      const stale = fake.event(type, { id: reversed.sessionId, object: 'checkout.session' });
      expect((await deliver(stale)).status, type).toBe(200);
    }
    expect((await paymentRow(reversed.sessionId))?.status).toBe('paid');
    expect(await tokensOf(reversed.client)).toBe(1120);

    // Delayed: Stripe's retry of a day-old event comes with a fresh signature and is credited once.
    const late = await buyerWithCheckout(500);
    fake.paySession(late.sessionId);
    const dayOld = JSON.parse(completed(late.sessionId)) as { created: number };
    dayOld.created -= 24 * 60 * 60;
    const payload = JSON.stringify(dayOld);
    expect((await deliver(payload)).status).toBe(200);
    expect((await deliver(payload)).status).toBe(200);
    expect(await tokensOf(late.client)).toBe(520);
    const rows = await backend.database.db.select().from(ledger).where(eq(ledger.reference, late.sessionId));
    expect(rows.map((r) => [r.reason, r.delta])).toEqual([['purchase', 500]]);
  });

  it('believes Stripe, not the payload: a session Stripe says is unpaid credits nothing until it is paid', async () => {
    const { client, sessionId } = await buyerWithCheckout(500);
    fake.paySession(sessionId, 'unpaid');
    expect((await deliver(completed(sessionId))).status).toBe(200);
    expect(await tokensOf(client)).toBe(20);
    expect((await paymentRow(sessionId))?.status).toBe('open');

    fake.paySession(sessionId, 'paid');
    const later = fake.event('checkout.session.async_payment_succeeded', { id: sessionId, object: 'checkout.session' });
    expect((await deliver(later)).status).toBe(200);
    expect(await tokensOf(client)).toBe(520);
  });

  it('refuses bad signatures and stale or future timestamps with 400 and changes nothing', async () => {
    const { client, sessionId } = await buyerWithCheckout(500);
    fake.paySession(sessionId);
    const payload = completed(sessionId, 'evt_forged_then_real');
    const now = Math.floor(Date.now() / 1000);
    const refused = [
      await deliver(payload, null),
      await deliver(payload, 'garbage'),
      await deliver(payload, fake.sign(payload, { secret: 'whsec_c29tZW9uZSBlbHNl' })),
      await deliver(payload.replace('"paid"', '"paid" '), fake.sign(payload)),
      await deliver(payload, fake.sign(payload, { timestamp: now - 301 })),
      // Signed for later: a leaked future-dated signature must not stay valid for days.
      await deliver(payload, fake.sign(payload, { timestamp: now + 400 })),
      await deliver(payload, fake.sign(payload, { timestamp: now + 86_400 })),
    ];
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({ error: 'Invalid or expired Stripe signature' });
    }
    expect(await tokensOf(client)).toBe(20);
    expect(await eventRecorded('evt_forged_then_real')).toBe(false);
    // The same event, properly signed, is still handled.
    expect((await deliver(payload, fake.sign(payload, { timestamp: now - 200 }))).status).toBe(200);
    expect(await tokensOf(client)).toBe(520);
  });

  it('rejects a session for a price we do not sell, and ignores sessions that are not ours', async () => {
    const { client, sessionId } = await buyerWithCheckout(500);
    fake.setSessionPrice(sessionId, OTHER_PRICE);
    fake.paySession(sessionId);
    const payload = completed(sessionId, 'evt_other_price');
    const answer = await deliver(payload);
    expect(answer.status).toBe(422);
    expect(((await answer.json()) as { error: string }).error).toContain(OTHER_PRICE);
    expect(await tokensOf(client)).toBe(20);
    expect((await paymentRow(sessionId))?.status).toBe('open');
    expect(await eventRecorded('evt_other_price')).toBe(false);

    // STRIPE_PRICE_500 pointing at a Stripe price of another amount: not sold at the wrong price.
    fake.setPrice(PRICES[500], 50);
    const cheap = await buyerWithCheckout(500);
    fake.setPrice(PRICES[500], 500);
    fake.paySession(cheap.sessionId);
    const underpaid = await deliver(completed(cheap.sessionId));
    expect(underpaid.status).toBe(422);
    expect(((await underpaid.json()) as { error: string }).error).toContain('amount 50');
    expect(await tokensOf(cheap.client)).toBe(20);

    const foreign = fake.createForeignSession(PRICES[500]);
    fake.paySession(foreign);
    const ignored = await deliver(completed(foreign));
    expect(ignored.status).toBe(200);
    expect(await ignored.json()).toMatchObject({ received: true, ignored: 'unknown session' });
    expect(await backend.database.db.select().from(ledger).where(eq(ledger.reference, foreign))).toEqual([]);
  });

  it('answers 500 when Stripe cannot confirm the session, and handles the retry', async () => {
    const { client, sessionId } = await buyerWithCheckout(500);
    fake.paySession(sessionId);
    const payload = completed(sessionId, 'evt_retry_me');
    fake.failNext();
    const answer = await deliver(payload);
    expect(answer.status).toBe(500);
    expect(await eventRecorded('evt_retry_me')).toBe(false);
    expect(await tokensOf(client)).toBe(20);

    expect((await deliver(payload)).status).toBe(200);
    expect(await eventRecorded('evt_retry_me')).toBe(true);
    expect(await tokensOf(client)).toBe(520);
  });

  it('closes expired and failed sessions without credit, and acknowledges unknown events', async () => {
    const expired = await buyerWithCheckout(500);
    const failed = await buyerWithCheckout(500);
    const e = fake.event('checkout.session.expired', { id: expired.sessionId, object: 'checkout.session' });
    const f = fake.event('checkout.session.async_payment_failed', { id: failed.sessionId, object: 'checkout.session' });
    expect((await deliver(e)).status).toBe(200);
    expect((await deliver(f)).status).toBe(200);
    expect((await paymentRow(expired.sessionId))?.status).toBe('expired');
    expect((await paymentRow(failed.sessionId))?.status).toBe('failed');
    expect(await tokensOf(expired.client)).toBe(20);

    const unknown = await deliver(fake.event('customer.updated', { id: expired.customerId, object: 'customer' }));
    expect(unknown.status).toBe(200);
    expect(await unknown.json()).toMatchObject({ received: true, ignored: 'customer.updated' });
  });

  it('cancels an open checkout: Stripe expires the session first; a late completion is refunded, never credited', async () => {
    const buyer = await buyerWithCheckout(500);
    const other = await buyerWithCheckout(500);
    const cancelPath = `/api/purchases/${buyer.sessionId}/cancel`;
    expect((await other.client.post(cancelPath)).status).toBe(404);
    expect(fake.session(buyer.sessionId).status).toBe('open');

    const cancelled = await buyer.client.post(cancelPath);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ purchase: { id: buyer.sessionId, status: 'canceled' } });
    expect(fake.session(buyer.sessionId).status).toBe('expired');
    expect(() => fake.paySession(buyer.sessionId)).toThrow(/expired/);
    // Again: the same answer, and Stripe is not asked again.
    const expires = () => fake.requests.filter((r) => r.path === `/v1/checkout/sessions/${buyer.sessionId}/expire`);
    expect(expires()).toHaveLength(1);
    expect((await buyer.client.post(cancelPath)).body).toMatchObject({ purchase: { status: 'canceled' } });
    expect(expires()).toHaveLength(1);

    // Had Stripe taken the money all the same, its completion credits nothing and is refunded, once.
    fake.paySession(buyer.sessionId, 'paid', { evenIfExpired: true });
    const late = await deliver(completed(buyer.sessionId));
    expect(late.status).toBe(200);
    expect(await late.json()).toMatchObject({ refunded: true });
    expect(fake.refunds()).toContainEqual(
      expect.objectContaining({ payment_intent: fake.session(buyer.sessionId).payment_intent, amount: 500 }),
    );
    const refundsBefore = fake.refunds().length;
    expect((await deliver(completed(buyer.sessionId))).status).toBe(200);
    expect(fake.refunds()).toHaveLength(refundsBefore);
    expect(await tokensOf(buyer.client)).toBe(20);
    const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, buyer.id));
    expect(rows.filter((row) => row.reason === 'purchase')).toEqual([]);
  });

  it('keeps a checkout open when Stripe will not expire it (paid a moment ago), and credits its payment', async () => {
    const buyer = await buyerWithCheckout(500);
    fake.paySession(buyer.sessionId);
    const refused = await buyer.client.post<{ error: string }>(`/api/purchases/${buyer.sessionId}/cancel`);
    expect(refused.status).toBe(502);
    expect(refused.body.error).toBe('The checkout could not be cancelled just now. Please try again in a moment.');
    expect((await paymentRow(buyer.sessionId))?.status).toBe('open');
    expect((await deliver(completed(buyer.sessionId))).status).toBe(200);
    expect(await tokensOf(buyer.client)).toBe(520);
    const again = await buyer.client.post<{ error: string }>(`/api/purchases/${buyer.sessionId}/cancel`);
    expect(again.status).toBe(409);
  });

  describe('account deletion (issue 36)', () => {
    const purchaseRows = async (userId: string) =>
      backend.database.db.select().from(ledger).where(eq(ledger.userId, userId));

    it('expires the open checkouts at Stripe, deletes the customer, and refunds a payment that still arrives', async () => {
      const open = await buyerWithCheckout(1100);
      // Paid at Stripe just before the deletion; its webhook comes after.
      const paidLate = await open.client.post<{ id: string }>('/api/create-checkout-session', { priceId: PRICES[500] });
      fake.paySession(paidLate.body.id);

      expect((await open.client.request('DELETE', '/api/account')).status).toBe(204);

      expect(fake.session(open.sessionId).status).toBe('expired');
      expect(() => fake.paySession(open.sessionId)).toThrow(/expired/);
      expect((await paymentRow(open.sessionId))?.status).toBe('expired');
      expect(fake.hasCustomer(open.customerId)).toBe(false);

      const answer = await deliver(completed(paidLate.body.id));
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ refunded: true });
      expect(fake.refunds()).toContainEqual(
        expect.objectContaining({ payment_intent: fake.session(paidLate.body.id).payment_intent, amount: 500 }),
      );
      expect((await paymentRow(paidLate.body.id))?.status).toBe('refunded');
      expect((await purchaseRows(open.id)).filter((row) => row.reason === 'purchase')).toEqual([]);

      // A repeat of the event refunds nothing more.
      const refundsBefore = fake.refunds().length;
      expect((await deliver(completed(paidLate.body.id))).status).toBe(200);
      expect(fake.refunds()).toHaveLength(refundsBefore);
    });

    it('refunds nothing that was credited before the deletion when its event comes again', async () => {
      const buyer = await buyerWithCheckout(500);
      fake.paySession(buyer.sessionId);
      expect((await deliver(completed(buyer.sessionId))).status).toBe(200);
      expect(await tokensOf(buyer.client)).toBe(520);
      expect((await buyer.client.request('DELETE', '/api/account')).status).toBe(204);

      const refundsBefore = fake.refunds().length;
      const again = await deliver(completed(buyer.sessionId));
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ credited: false });
      expect(fake.refunds()).toHaveLength(refundsBefore);
      expect((await paymentRow(buyer.sessionId))?.status).toBe('paid');
      expect((await purchaseRows(buyer.id)).filter((row) => row.reason === 'purchase')).toHaveLength(1);
    });

    it("a refund that fails is an alert in health and the admin command until Stripe's retry refunds it", async () => {
      const buyer = await buyerWithCheckout(500);
      fake.paySession(buyer.sessionId);
      expect((await buyer.client.request('DELETE', '/api/account')).status).toBe(204);

      const payload = completed(buyer.sessionId, `evt_refund_${buyer.sessionId}`);
      fake.failNext(1, '/v1/refunds');
      expect((await deliver(payload)).status).toBe(500);
      expect((await paymentRow(buyer.sessionId))?.status).toBe('refund_failed');
      expect((await unrefundedPayments(backend.database.db)).map((p) => p.sessionId)).toEqual([buyer.sessionId]);
      const health = await backend.app.request('/api/health');
      expect(((await health.json()) as { alerts: unknown }).alerts).toEqual({ unrefundedPayments: 1 });
      expect((await purchaseRows(buyer.id)).filter((row) => row.reason === 'purchase')).toEqual([]);

      expect((await deliver(payload)).status).toBe(200);
      expect((await paymentRow(buyer.sessionId))?.status).toBe('refunded');
      expect(await unrefundedPayments(backend.database.db)).toEqual([]);
      expect((await purchaseRows(buyer.id)).filter((row) => row.reason === 'purchase')).toEqual([]);
    });
  });

  for (const [kind, type, object, field, toolMessage] of [
    ['dispute', 'charge.dispute.created', 'dispute', 'isDispute', TOOL_MESSAGES.dispute],
    [
      'fraud warning',
      'radar.early_fraud_warning.created',
      'radar.early_fraud_warning',
      'isFraudulent',
      TOOL_MESSAGES.fraud,
    ],
  ] as const) {
    it(`a ${kind} on a charge blocks the customer's purchases and tools`, async () => {
      const { client, sessionId } = await buyerWithCheckout(500);
      const { chargeId } = fake.paySession(sessionId);
      expect((await deliver(completed(sessionId))).status).toBe(200);
      const bystander = await buyerWithCheckout(500);

      const answer = await deliver(fake.event(type, { id: `${object}_1`, object, charge: chargeId }));
      expect(answer.status).toBe(200);
      expect(fake.requests.some((r) => r.method === 'GET' && r.path === `/v1/charges/${chargeId}`)).toBe(true);
      expect((await client.get<Profile>('/api/profile')).body[field]).toBe(true);

      const purchase = await client.post<{ error: string }>('/api/create-checkout-session', { priceId: PRICES[500] });
      expect([purchase.status, purchase.body.error]).toEqual([403, PURCHASE_MESSAGES.blockedAlert]);
      const tool = await client.post<{ success: boolean; error: string }>('/api/generate-image', { prompt: 'a cat' });
      expect([tool.status, tool.body.error]).toEqual([403, toolMessage]);
      expect(await tokensOf(client)).toBe(520);

      const other = await bystander.client.get<Profile>('/api/profile');
      expect([other.body.isDispute, other.body.isFraudulent]).toEqual([false, false]);
    });
  }
});
