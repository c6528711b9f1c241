// A fake Stripe API on 127.0.0.1 for tests: the endpoints our server calls through the official SDK
// (customers, Checkout Sessions, charges, refunds), form-encoded bodies parsed as Stripe does, bearer-key
// auth, and every request recorded. Tests pay sessions, open disputes, and sign webhook events
// with the SDK's own generateTestHeaderString, as Stripe would deliver them.
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/** `params`: the form body of a POST, the query of a GET, both decoded into objects. */
export type RecordedStripeRequest = { method: string; path: string; params: FormBody };
type FormBody = { [key: string]: string | FormBody | FormBody[] | string[] };

type FakeSession = {
  id: string;
  object: 'checkout.session';
  mode: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid' | 'no_payment_required';
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string;
  currency: 'usd';
  amount_subtotal: number;
  amount_total: number;
  payment_intent: string | null;
  line_items: { price: string; quantity: number }[];
};

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString('hex')}`;

export type FakeStripe = Awaited<ReturnType<typeof startFakeStripe>>;

/** `prices`: the account's prices (id to unit amount in cents); sessions may only use these. */
export async function startFakeStripe(prices: Record<string, number>) {
  const secretKey = `sk_test_fake${randomBytes(8).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(24).toString('base64')}`;
  const requests: RecordedStripeRequest[] = [];
  const customers = new Map<string, { id: string; email: string; metadata: Record<string, string> }>();
  const sessions = new Map<string, FakeSession>();
  const charges = new Map<string, { id: string; customer: string | null; amount: number }>();
  const refunds = new Map<
    string,
    { id: string; payment_intent: string; amount: number; metadata: Record<string, string> }
  >();
  const prices_ = new Map(Object.entries(prices));
  let url = '';
  let outages = 0;
  /** When set, only requests to paths starting with this fail (an outage of one endpoint). */
  let outagePath: string | null = null;

  const sessionView = (s: FakeSession, expandLineItems: boolean) => {
    const { line_items, ...rest } = s;
    if (!expandLineItems) return rest;
    return {
      ...rest,
      line_items: {
        object: 'list',
        has_more: false,
        url: `/v1/checkout/sessions/${s.id}/line_items`,
        data: line_items.map((item, i) => ({
          id: `li_${i}_${s.id}`,
          object: 'item',
          quantity: item.quantity,
          amount_subtotal: (prices_.get(item.price) ?? 0) * item.quantity,
          price: { id: item.price, object: 'price', unit_amount: prices_.get(item.price) ?? null, currency: 'usd' },
        })),
      },
    };
  };

  function route(method: string, path: string, body: FormBody): [number, unknown] {
    if (method === 'POST' && path === '/v1/customers') {
      const customer = { id: id('cus'), email: String(body.email ?? ''), metadata: asStrings(body.metadata) };
      customers.set(customer.id, customer);
      return [200, { object: 'customer', ...customer }];
    }
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const items = (Array.isArray(body.line_items) ? body.line_items : []) as FormBody[];
      const lineItems = items.map((item) => ({ price: String(item.price), quantity: Number(item.quantity ?? 1) }));
      const unknown = lineItems.find((item) => !prices_.has(item.price));
      if (lineItems.length === 0 || unknown) {
        return [400, stripeError(`No such price: '${unknown?.price ?? ''}'`, 'line_items')];
      }
      const customer = typeof body.customer === 'string' ? body.customer : null;
      if (customer && !customers.has(customer))
        return [400, stripeError(`No such customer: '${customer}'`, 'customer')];
      const amount = lineItems.reduce((sum, item) => sum + (prices_.get(item.price) ?? 0) * item.quantity, 0);
      const sessionId = id('cs_test');
      const session: FakeSession = {
        id: sessionId,
        object: 'checkout.session',
        mode: String(body.mode),
        status: 'open',
        payment_status: 'unpaid',
        customer,
        customer_email: typeof body.customer_email === 'string' ? body.customer_email : null,
        client_reference_id: typeof body.client_reference_id === 'string' ? body.client_reference_id : null,
        metadata: asStrings(body.metadata),
        success_url: String(body.success_url),
        cancel_url: String(body.cancel_url),
        url: `${url}/c/pay/${sessionId}`,
        currency: 'usd',
        amount_subtotal: amount,
        amount_total: amount,
        payment_intent: null,
        line_items: lineItems,
      };
      sessions.set(sessionId, session);
      return [200, sessionView(session, false)];
    }
    const customerPath = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (method === 'DELETE' && customerPath) {
      const customerId = customerPath[1] ?? '';
      if (!customers.delete(customerId)) return [404, stripeError(`No such customer: '${customerId}'`, 'id')];
      return [200, { id: customerId, object: 'customer', deleted: true }];
    }
    const expirePath = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === 'POST' && expirePath) {
      const session = sessions.get(expirePath[1] ?? '');
      if (!session) return [404, stripeError(`No such checkout.session: '${expirePath[1]}'`, 'id')];
      if (session.status !== 'open') {
        return [400, stripeError('Only Checkout Sessions with a status in ["open"] can be expired.')];
      }
      session.status = 'expired';
      return [200, sessionView(session, false)];
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const paymentIntent = String(body.payment_intent ?? '');
      const paid = [...sessions.values()].find((s) => s.payment_intent === paymentIntent);
      if (!paid) return [400, stripeError(`No such payment_intent: '${paymentIntent}'`, 'payment_intent')];
      const refund = {
        id: id('re'),
        payment_intent: paymentIntent,
        amount: paid.amount_total,
        metadata: asStrings(body.metadata),
      };
      refunds.set(refund.id, refund);
      return [200, { object: 'refund', status: 'succeeded', currency: 'usd', ...refund }];
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sessionPath) {
      const session = sessions.get(sessionPath[1] ?? '');
      if (!session) return [404, stripeError(`No such checkout.session: '${sessionPath[1]}'`, 'id')];
      const expand: unknown[] = Array.isArray(body.expand) ? body.expand : [];
      return [200, sessionView(session, expand.includes('line_items'))];
    }
    const chargePath = /^\/v1\/charges\/([^/]+)$/.exec(path);
    if (method === 'GET' && chargePath) {
      const charge = charges.get(chargePath[1] ?? '');
      if (!charge) return [404, stripeError(`No such charge: '${chargePath[1]}'`, 'id')];
      return [200, { object: 'charge', currency: 'usd', paid: true, ...charge }];
    }
    return [404, stripeError(`Unrecognized request URL (${method}: ${path}).`)];
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, stripeError(String(error)));
    });
  });
  async function handle(req: IncomingMessage, res: ServerResponse) {
    const target = new URL(req.url ?? '/', url);
    const method = req.method ?? 'GET';
    const params = parseForm(method === 'GET' ? target.searchParams : new URLSearchParams(await readBody(req)));
    requests.push({ method, path: target.pathname, params });
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      return send(res, 401, stripeError('Invalid API Key provided', undefined, 'authentication_error'));
    }
    if (outages > 0 && (outagePath === null || target.pathname.startsWith(outagePath))) {
      outages--;
      // Told not to retry, so that the failure reaches our server at once.
      return send(res, 500, stripeError('An unknown error occurred', undefined, 'api_error'), {
        'stripe-should-retry': 'false',
      });
    }
    const [status, json] = route(method, target.pathname, params);
    send(res, status, json);
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const mustSession = (sessionId: string) => {
    const session = sessions.get(sessionId);
    if (!session) throw new Error(`fake Stripe has no session ${sessionId}`);
    return session;
  };

  return {
    url,
    secretKey,
    webhookSecret,
    requests,
    /** The env that points our server at this fake, with the given price ids for the three packages. */
    env(priceIds: { 500: string; 1100: string; 2400: string }): Record<string, string> {
      return {
        STRIPE_SECRET_KEY: secretKey,
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_PRICE_500: priceIds[500],
        STRIPE_PRICE_1100: priceIds[1100],
        STRIPE_PRICE_2400: priceIds[2400],
        STRIPE_API_BASE: url,
      };
    },
    session: (sessionId: string) => sessionView(mustSession(sessionId), true),
    /** A session made directly in the Stripe account (not through our server). */
    createForeignSession(price: string): string {
      const [, made] = route('POST', '/v1/checkout/sessions', {
        mode: 'payment',
        line_items: [{ price, quantity: '1' }],
        success_url: 'https://elsewhere.example/ok',
        cancel_url: 'https://elsewhere.example/no',
      });
      return (made as { id: string }).id;
    },
    /** Sets a price's amount (a price in the account that differs from what we sell it for). */
    setPrice(price: string, cents: number) {
      prices_.set(price, cents);
    },
    /** Replaces what a session sells (as if it had been opened for another price). */
    setSessionPrice(sessionId: string, price: string) {
      const session = mustSession(sessionId);
      session.line_items = [{ price, quantity: 1 }];
      session.amount_subtotal = session.amount_total = prices_.get(price) ?? 0;
    },
    /** The customer pays: the session completes as paid (or still processing) and a charge exists. */
    paySession(
      sessionId: string,
      paymentStatus: 'paid' | 'unpaid' = 'paid',
      /** As if Stripe let an expired session be paid (it does not): what our side does with such a payment. */
      options: { evenIfExpired?: boolean } = {},
    ): { chargeId: string } {
      const session = mustSession(sessionId);
      if (session.status === 'expired' && !options.evenIfExpired)
        throw new Error(`fake Stripe: session ${sessionId} expired: it cannot be paid`);
      session.status = 'complete';
      session.payment_status = paymentStatus;
      session.payment_intent = id('pi');
      const charge = { id: id('ch'), customer: session.customer, amount: session.amount_total };
      charges.set(charge.id, charge);
      return { chargeId: charge.id };
    },
    /** An event as Stripe would send it, with `object` as its data. */
    event(type: string, object: Record<string, unknown>, eventId = id('evt')): string {
      return JSON.stringify({
        id: eventId,
        object: 'event',
        api_version: '2025-01-01',
        created: Math.floor(Date.now() / 1000),
        livemode: false,
        pending_webhooks: 1,
        type,
        data: { object },
      });
    },
    /** The Stripe-Signature header of `payload`, signed now (or at `timestamp`) with `secret`. */
    sign(payload: string, options: { timestamp?: number; secret?: string } = {}): string {
      return Stripe.webhooks.generateTestHeaderString({
        payload,
        secret: options.secret ?? webhookSecret,
        timestamp: options.timestamp ?? Math.floor(Date.now() / 1000),
      });
    },
    /** The next `count` requests (to paths starting with `path`, if given) fail with Stripe's 500 (an outage). */
    failNext(count = 1, path: string | null = null) {
      outages = count;
      outagePath = path;
    },
    /** Whether the customer still exists (account deletion deletes it). */
    hasCustomer: (customerId: string) => customers.has(customerId),
    /** The refunds made, oldest first. */
    refunds: () => [...refunds.values()],
    reset() {
      requests.length = 0;
      outages = 0;
      outagePath = null;
    },
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Stripe's form encoding back into objects: `a[b]=1`, `items[0][price]=x` (arrays by index). */
function parseForm(params: URLSearchParams): FormBody {
  const root: FormBody = {};
  for (const [key, value] of params) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const container = node as Record<string, unknown>;
      if (last) {
        container[part] = value;
        return;
      }
      container[part] ??= /^\d+$/.test(parts[i + 1] ?? '') ? [] : {};
      node = container[part] as Record<string, unknown>;
    });
  }
  return root;
}

function asStrings(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
}

function stripeError(message: string, param?: string, type = 'invalid_request_error') {
  return { error: { message, type, ...(param ? { param } : {}) } };
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': id('req'),
    ...headers,
  });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
