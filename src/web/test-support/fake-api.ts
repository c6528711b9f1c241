// A fake of the server's JSON API for web tests: a table of routes ("METHOD /path") to replies,
// installed as the global fetch. Replies can be sequences (the last one repeats), functions of the
// request, pending promises (to see a "Processing..." state) or a network failure.
import { vi } from 'vitest';
import type { AccountDetails, Profile, PublicConfig } from '../../contract/accounts';

/**
 * `search`: the query string, with its '?' ('' when none); routes match on the path alone.
 * `headers`: the request's own headers (names in lower case).
 */
export type FakeRequest = {
  method: string;
  path: string;
  search: string;
  body: unknown;
  headers: Record<string, string>;
};
export type FakeReply = { status?: number; body?: unknown } | 'network-error';
export type FakeHandler = FakeReply | ((request: FakeRequest) => FakeReply | Promise<FakeReply>);
export type FakeRoutes = Record<string, FakeHandler | FakeHandler[]>;

export const PROFILE: Profile = {
  email: 'ada@example.com',
  tokens: 20,
  emailVerified: true,
  isDispute: false,
  isFraudulent: false,
  stripeCustomerId: 'cus_123',
};

/** GET /api/account of the signed-in user (User Settings): a password account by default. */
export const ACCOUNT_DETAILS: AccountDetails = {
  name: 'Ada',
  email: PROFILE.email,
  emailVerified: true,
  hasPassword: true,
  hasGoogle: false,
};

export const CONFIG: PublicConfig = { googleSignIn: true, devMailUrl: null, supportEmail: null };

export const session = (profile: Pick<Profile, 'email' | 'emailVerified'> = PROFILE) => ({
  session: { id: 'session-1', userId: 'user-1' },
  user: { id: 'user-1', email: profile.email, emailVerified: profile.emailVerified, name: 'ada' },
});

/** Routes of a visitor who is not signed in. */
export function signedOutRoutes(config: PublicConfig = CONFIG): FakeRoutes {
  return { 'GET /api/auth/get-session': { body: null }, 'GET /api/config': { body: config } };
}

/** Routes of a signed-in user with this profile. */
export function signedInRoutes(overrides: Partial<Profile> = {}, config: PublicConfig = CONFIG): FakeRoutes {
  const profile = { ...PROFILE, ...overrides };
  return {
    'GET /api/auth/get-session': { body: session(profile) },
    'GET /api/profile': { body: profile },
    'GET /api/config': { body: config },
    'GET /api/account': { body: { ...ACCOUNT_DETAILS, email: profile.email, emailVerified: profile.emailVerified } },
  };
}

export type FakeApi = {
  calls: FakeRequest[];
  /** Requests made to one route, in order. */
  callsTo(route: string): FakeRequest[];
  /** Replaces (or adds) the replies of routes. */
  set(routes: FakeRoutes): void;
};

/** A promise with its resolve function exposed, for replies the test releases itself. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

function minimalResponse(status: number, body: unknown): Response {
  const text = body === undefined ? '' : JSON.stringify(body);
  return {
    ok: status >= 200 && status < 300,
    status,
    text: async () => text,
    json: async () => JSON.parse(text),
    blob: async () => new Blob([text]),
  } as Response;
}

/** Installs the fake as the global fetch (undo with vi.unstubAllGlobals()). */
export function installFakeApi(routes: FakeRoutes = signedOutRoutes()): FakeApi {
  const table = new Map<string, FakeHandler[]>();
  const set = (next: FakeRoutes) => {
    for (const [route, handler] of Object.entries(next))
      table.set(route, Array.isArray(handler) ? [...handler] : [handler]);
  };
  set(routes);
  const calls: FakeRequest[] = [];

  const fetch = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), window.location.origin);
    const method = (init.method ?? 'GET').toUpperCase();
    const request: FakeRequest = {
      method,
      path: url.pathname,
      search: url.search,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: Object.fromEntries(
        [...new Headers(init.headers).entries()].map(([name, value]) => [name.toLowerCase(), value]),
      ),
    };
    calls.push(request);
    const handlers = table.get(`${method} ${url.pathname}`);
    if (!handlers || handlers.length === 0) return minimalResponse(404, { error: 'Not found' });
    const handler = (handlers.length > 1 ? handlers.shift() : handlers[0]) as FakeHandler;
    const reply = typeof handler === 'function' ? await handler(request) : handler;
    if (reply === 'network-error') throw new TypeError('Failed to fetch');
    return minimalResponse(reply.status ?? 200, reply.body);
  });
  vi.stubGlobal('fetch', fetch);

  return {
    calls,
    callsTo: (route) => calls.filter((call) => `${call.method} ${call.path}` === route),
    set,
  };
}
