// Purchases (product-spec.md sections 5 and 7): the spec's two backend calls, the user's purchase
// history, and the built-in test checkout of the local provider. The server applies the purchase
// rules itself (signed in, verified, no dispute, no fraud flag) and sells only its own packages.
import { randomUUID } from 'node:crypto';
import { and, desc, eq } from 'drizzle-orm';
import { type Context, Hono } from 'hono';
import { formatPrice, PURCHASE_MESSAGES, type Purchase, type TokenPackage } from '../../contract/packages';
import { TOOL_MESSAGES } from '../../contract/tools';
import { describeRoute } from '../api-docs/describe-route';
import type { Auth } from '../auth/auth';
import { sessionUser } from '../auth/session';
import type { AppDb } from '../db/client';
import { payments } from '../db/schema';
import type { Logger } from '../log';
import { escapeMarkup } from '../markup/escape-markup';
import { htmlPage } from '../markup/html-page';
import type { Metrics } from '../observability/metrics';
import { readOrCreateProfile } from '../profiles/profiles';
import { PRIVATE_JSON_CACHE } from '../responses/private-cache';
import { originCheck } from '../security/origin-check';
import { inlineStylePagePolicy } from '../security/security-headers';
import { LIST_PACKAGES_OPERATION } from './api-docs';
import { checkoutExpiresAtOf, expireStaleCheckouts, isCheckoutExpired } from './checkout-expiry';
import { ensureCustomer } from './customers';
import { closePayment, fulfilPayment } from './fulfilment';
import type { PaymentProvider } from './payment-provider';

export type BillingDeps = {
  db: AppDb;
  auth: Auth;
  payments: PaymentProvider;
  /** What is sold here (activePackages): ids are the provider's price ids. */
  packages: readonly TokenPackage[];
  appUrl: string;
  trustedOrigins: string[];
  logger?: Logger;
  /** Counts payments by outcome and the tokens they sold (GET /metrics). */
  metrics?: Metrics;
};

/**
 * GET /api/packages, POST /api/create-stripe-customer, POST /api/create-checkout-session, GET /api/purchases,
 * POST /api/purchases/:id/cancel.
 */
export function billingApiRoutes(deps: BillingDeps) {
  const { db, auth, logger } = deps;
  const app = new Hono();

  // Public: the landing page shows the packages to visitors; `id` is what the checkout accepts.
  app.get('/packages', describeRoute(LIST_PACKAGES_OPERATION), (c) =>
    c.json({
      packages: deps.packages.map(({ id, name, tokens, priceCents, features }) => ({
        id,
        name,
        tokens,
        priceCents,
        features,
      })),
    }),
  );

  app.post('/create-stripe-customer', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const body = (await c.req.json().catch(() => ({}))) as { userId?: unknown };
    if (body.userId !== undefined && body.userId !== user.id) return c.json({ error: TOOL_MESSAGES.wrongUser }, 403);
    return c.json({ customerId: await ensureCustomer(db, deps.payments, user) });
  });

  app.post('/create-checkout-session', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const body = (await c.req.json().catch(() => null)) as { priceId?: unknown; userId?: unknown } | null;
    if (!body || typeof body !== 'object') return c.json({ error: 'body: must be a JSON object' }, 400);
    if (body.userId !== undefined && body.userId !== user.id) return c.json({ error: TOOL_MESSAGES.wrongUser }, 403);
    const profile = await readOrCreateProfile(db, user.id, deps.metrics);
    if (!profile) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    if (!user.emailVerified) return c.json({ error: PURCHASE_MESSAGES.verifyAlert }, 403);
    if (profile.isDispute || profile.isFraudulent) return c.json({ error: PURCHASE_MESSAGES.blockedAlert }, 403);
    const pack = deps.packages.find((p) => p.id === body.priceId);
    if (!pack) return c.json({ error: PURCHASE_MESSAGES.unknownPackage }, 400);

    const paymentId = randomUUID();
    const session = await deps.payments.createCheckoutSession({
      paymentId,
      userId: user.id,
      email: user.email,
      // Every checkout carries our customer, so disputes and fraud warnings find the account.
      customerId: profile.stripeCustomerId ?? (await ensureCustomer(db, deps.payments, user)),
      priceId: pack.id,
      name: pack.name,
      amountCents: pack.priceCents,
      successUrl: `${deps.appUrl}/tokens?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${deps.appUrl}/tokens?checkout=canceled`,
    });
    await db.insert(payments).values({
      id: paymentId,
      userId: user.id,
      provider: deps.payments.kind,
      sessionId: session.sessionId,
      packageId: pack.id,
      tokens: pack.tokens,
      amountCents: pack.priceCents,
    });
    return c.json({ id: session.sessionId, url: session.url });
  });

  app.get('/purchases', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    deps.metrics?.payment('expired', await expireStaleCheckouts(db, user.id));
    const rows = await db
      .select()
      .from(payments)
      .where(eq(payments.userId, user.id))
      .orderBy(desc(payments.createdAt))
      .limit(50);
    c.header('Cache-Control', PRIVATE_JSON_CACHE);
    return c.json({ purchases: rows.map(purchaseView) });
  });

  // The user ends an open checkout they will not pay (issue 38): the provider's session first, so
  // that it can no longer be paid, then our row. Again on an ended one answers it as it is.
  app.post('/purchases/:id/cancel', async (c) => {
    const user = await sessionUser(auth, c);
    if (!user) return c.json({ error: TOOL_MESSAGES.signInRequired }, 401);
    const sessionId = c.req.param('id');
    const own = async () =>
      (
        await db
          .select()
          .from(payments)
          .where(and(eq(payments.sessionId, sessionId), eq(payments.userId, user.id)))
      )[0];
    const payment = await own();
    // Another user's checkout is the same 404 as a missing one.
    if (!payment) return c.json({ error: PURCHASE_MESSAGES.noSuchCheckout }, 404);
    if (payment.status === 'open' && isCheckoutExpired(payment.createdAt)) {
      await closePayment(db, sessionId, 'expired', deps.metrics);
    } else if (payment.status === 'open') {
      try {
        await deps.payments.expireCheckoutSession(sessionId);
      } catch (error) {
        // Paid a moment ago (its confirmation on its way), or the provider out of reach: nothing changes.
        const now = await own();
        if (now?.status === 'open') {
          logger?.warn('an open checkout could not be cancelled at its provider', { sessionId, error });
          return c.json({ error: PURCHASE_MESSAGES.cancelFailed }, 502);
        }
      }
      await closePayment(db, sessionId, 'canceled', deps.metrics);
    }
    const ended = (await own()) ?? payment;
    if (ended.status === 'paid') return c.json({ error: PURCHASE_MESSAGES.alreadyPaid }, 409);
    return c.json({ purchase: purchaseView(ended) });
  });

  return app;
}

/** One row of GET /api/purchases; an open checkout says when it ends. */
function purchaseView(p: typeof payments.$inferSelect): Purchase {
  return {
    id: p.sessionId,
    packageId: p.packageId,
    tokens: p.tokens,
    amount: formatPrice(p.amountCents),
    status: p.status,
    createdAt: p.createdAt.toISOString(),
    completedAt: p.completedAt?.toISOString() ?? null,
    expiresAt: p.status === 'open' ? checkoutExpiresAtOf(p.createdAt).toISOString() : null,
  };
}

/**
 * The local provider's hosted checkout (mounted at LOCAL_CHECKOUT_PATH only when Stripe is not
 * configured): visibly a test-mode page; Pay runs the same fulfilment as Stripe's webhook.
 */
export function localCheckoutRoutes(deps: BillingDeps) {
  const { db, auth } = deps;
  const app = new Hono();
  app.use('*', originCheck(deps.trustedOrigins));

  const ownOpenPayment = async (c: Context, sessionId: string) => {
    const user = await sessionUser(auth, c);
    if (!user) return null;
    const [payment] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.sessionId, sessionId), eq(payments.userId, user.id), eq(payments.provider, 'local')));
    return payment ?? null;
  };

  /** Whether the session is over by expiry: marked so now if its hour just passed. */
  const hasExpired = async (payment: typeof payments.$inferSelect) => {
    if (payment.status === 'expired') return true;
    if (payment.status !== 'open' || !isCheckoutExpired(payment.createdAt)) return false;
    await closePayment(db, payment.sessionId, 'expired', deps.metrics);
    return true;
  };

  app.get('/:sessionId', async (c) => {
    const sessionId = c.req.param('sessionId');
    const payment = await ownOpenPayment(c, sessionId);
    if (!payment)
      return checkoutPage(c, 'Checkout not found', '<p>This checkout does not exist or is not yours.</p>', 404);
    const pack = deps.packages.find((p) => p.id === payment.packageId);
    const id = escapeMarkup(sessionId);
    if (await hasExpired(payment)) return checkoutPage(c, 'Checkout expired', EXPIRED_BODY);
    const body =
      payment.status !== 'open'
        ? `<p>This checkout is already ${escapeMarkup(payment.status)}.</p><p><a href="/tokens">Back to Tokens</a></p>`
        : `<div class="line"><span>${escapeMarkup(pack?.name ?? payment.packageId)}</span><strong>${formatPrice(payment.amountCents)}</strong></div>
<form method="post" action="/checkout/local/${id}/pay">
  <label>Card number<input name="card" value="4242 4242 4242 4242" inputmode="numeric" autocomplete="off" required></label>
  <div class="row"><label>Expiry<input name="exp" value="12 / 34" required></label><label>CVC<input name="cvc" value="123" required></label></div>
  <button type="submit">Pay ${formatPrice(payment.amountCents)}</button>
</form>
<form method="post" action="/checkout/local/${id}/cancel"><button type="submit" class="secondary">Cancel</button></form>`;
    return checkoutPage(c, 'Picture Palette checkout', body);
  });

  app.post('/:sessionId/pay', async (c) => {
    const sessionId = c.req.param('sessionId');
    const payment = await ownOpenPayment(c, sessionId);
    if (!payment)
      return checkoutPage(c, 'Checkout not found', '<p>This checkout does not exist or is not yours.</p>', 404);
    if (await hasExpired(payment)) return checkoutPage(c, 'Checkout expired', EXPIRED_BODY);
    // A canceled, failed or expired session is over: it cannot be paid any more.
    if (payment.status !== 'open' && payment.status !== 'paid') {
      return c.redirect(`${deps.appUrl}/tokens?checkout=canceled`, 303);
    }
    await fulfilPayment(db, sessionId, deps.metrics);
    return c.redirect(`${deps.appUrl}/tokens?checkout=success`, 303);
  });

  app.post('/:sessionId/cancel', async (c) => {
    const sessionId = c.req.param('sessionId');
    const payment = await ownOpenPayment(c, sessionId);
    if (!payment)
      return checkoutPage(c, 'Checkout not found', '<p>This checkout does not exist or is not yours.</p>', 404);
    await closePayment(db, sessionId, 'canceled', deps.metrics);
    return c.redirect(`${deps.appUrl}/tokens?checkout=canceled`, 303);
  });
  return app;
}

const EXPIRED_BODY =
  '<p>This checkout expired an hour after it was opened. Nothing was charged.</p><p><a href="/tokens">Back to Tokens</a></p>';

/** The test checkout's own look, light and dark as the app's: one inline style, allowed by its hash (security/security-headers.ts). */
const CHECKOUT_STYLE = `
body{margin:0;font:16px/1.5 system-ui,sans-serif;background:#f4f3f8;color:#1d1b26;display:grid;place-items:center;min-height:100vh}
main{background:#fff;border-radius:16px;box-shadow:0 8px 30px #1d1b2620;padding:32px;width:min(420px,calc(100vw - 32px));box-sizing:border-box}
.banner{background:#fff4d6;color:#6b4b00;border-radius:8px;padding:8px 12px;font-size:14px;margin-bottom:16px}
h1{font-size:20px;margin:0 0 16px}.line{display:flex;justify-content:space-between;margin-bottom:16px}
label{display:block;font-size:14px;margin-bottom:12px}input{display:block;width:100%;box-sizing:border-box;margin-top:4px;padding:10px;border:1px solid #ccc;border-radius:8px;font:inherit}
.row{display:flex;gap:12px}.row label{flex:1}button{width:100%;padding:12px;border:0;border-radius:999px;font:600 16px system-ui;color:#fff;background:linear-gradient(90deg,#6c5ce7,#ff6b8b);cursor:pointer;margin-top:8px}
button.secondary{background:#fff;color:#1d1b26;border:1px solid #ccc}
a{color:#5b4bd6}:root{color-scheme:light dark}
@media (prefers-color-scheme:dark){body{background:#0e0e12;color:#ececf1}main{background:#1a1a22;box-shadow:0 8px 30px #00000080}
.banner{background:#3a2f0c;color:#ffe08a}input{background:#0e0e12;color:#ececf1;border-color:#3a3a48}
button.secondary{background:#1a1a22;color:#ececf1;border-color:#3a3a48}a{color:#b3a8ff}}
`;
const CHECKOUT_POLICY = inlineStylePagePolicy(CHECKOUT_STYLE);

/** A checkout page with the policy its inline style needs. */
function checkoutPage(c: Context, title: string, body: string, status: 200 | 404 = 200) {
  c.header('Content-Security-Policy', CHECKOUT_POLICY);
  const banner = '<div class="banner">Test mode: the built-in checkout. No card is charged.</div>';
  return c.html(
    htmlPage({ title, style: CHECKOUT_STYLE, main: `${banner}<h1>${escapeMarkup(title)}</h1>${body}` }),
    status,
  );
}
