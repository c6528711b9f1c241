// API keys (issue 39): a signed-in user makes, lists and revokes keys; `Authorization: Bearer <key>`
// acts as the key's owner on the tool calls and the reads of jobs, files, creations and the
// profile, charged exactly as a session is, and on nothing else; a revoked key is refused at once;
// every answer to a key (and every tool call) carries the RateLimit headers.
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/contract/accounts';
import {
  API_KEY_MESSAGES,
  API_KEYS_PER_ACCOUNT,
  type ApiKeyList,
  type CreatedApiKey,
} from '../../src/contract/api-keys';
import type { CreationList } from '../../src/contract/creations';
import { TOOL_MESSAGES } from '../../src/contract/tools';
import { setFlag } from '../../src/server/admin/commands';
import { apiKeys, jobs, ledger, user, webhookSecrets } from '../../src/server/db/schema';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { sendRequest, TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { paidLookalikeOfDemo, routerWith, verifiedUser } from '../support/tool-fixtures';

const CALLS_PER_MINUTE = 5;
let backend: TestBackend;
beforeAll(async () => {
  // A provider that charges (a demo is free), so that a charge shows.
  backend = await createTestBackend({
    env: { TOOL_CALLS_PER_MINUTE: String(CALLS_PER_MINUTE) },
    inference: routerWith(paidLookalikeOfDemo()),
  });
});
afterAll(() => backend.stop());
afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

const generate = { prompt: 'a small boat', numOutputs: 1 };

/** A program with a key: no cookies, no Origin (as curl or a server would call). */
const withKey = <T = unknown>(
  key: string,
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) =>
  sendRequest<T>(backend.app, method, path, {
    body: options.body,
    headers: { authorization: `Bearer ${key}`, ...options.headers },
  });

async function createKey(client: TestClient, name = 'My laptop') {
  const made = await client.post<CreatedApiKey>('/api/keys', { name });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body;
}

const keyRowsOf = (userId: string) => backend.database.db.select().from(apiKeys).where(eq(apiKeys.userId, userId));
const rateHeaders = (headers: Headers) => ({
  limit: headers.get('ratelimit-limit'),
  remaining: headers.get('ratelimit-remaining'),
  reset: Number(headers.get('ratelimit-reset')),
});

describe('managing keys with a session', () => {
  it('creates a key shown once, lists it by its first characters newest first, and revokes it', async () => {
    const { client, id } = await verifiedUser(backend);
    const first = await createKey(client, '  Shop backend  ');
    expect(first.key).toMatch(/^pp_[A-Za-z0-9_-]{43}$/);
    expect(first.name).toBe('Shop backend');
    expect(new Date(first.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const second = await createKey(client, 'Laptop');
    expect(second.key).not.toBe(first.key);

    const list = await client.get<ApiKeyList>('/api/keys');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      keys: [
        {
          id: second.id,
          name: 'Laptop',
          prefix: second.key.slice(0, 12),
          createdAt: second.createdAt,
          lastUsedAt: null,
        },
        {
          id: first.id,
          name: 'Shop backend',
          prefix: first.key.slice(0, 12),
          createdAt: first.createdAt,
          lastUsedAt: null,
        },
      ],
    });
    expect(JSON.stringify(list.body)).not.toContain(first.key);

    // Only the hash is kept.
    const rows = await keyRowsOf(id);
    expect(rows.map((r) => r.keyHash).sort()).toEqual(
      [first.key, second.key].map((k) => createHash('sha256').update(k).digest('hex')).sort(),
    );
    expect(JSON.stringify(rows)).not.toContain(first.key);

    const revoked = await client.request('DELETE', `/api/keys/${first.id}`);
    expect(revoked.status).toBe(204);
    expect((await client.get<ApiKeyList>('/api/keys')).body.keys.map((k) => k.id)).toEqual([second.id]);
    const again = await client.request<{ error: string }>('DELETE', `/api/keys/${first.id}`);
    expect(again.status).toBe(404);
    expect(again.body.error).toBe(API_KEY_MESSAGES.notFound);
    expect((await client.request('DELETE', '/api/keys/not-a-key-id')).status).toBe(404);
  });

  it("answers another user's key 404 and leaves it working", async () => {
    const owner = await verifiedUser(backend);
    const other = await verifiedUser(backend);
    const made = await createKey(owner.client);
    expect((await other.client.request('DELETE', `/api/keys/${made.id}`)).status).toBe(404);
    expect((await other.client.get<ApiKeyList>('/api/keys')).body).toEqual({ keys: [] });
    expect((await withKey(made.key, 'GET', '/api/profile')).status).toBe(200);
  });

  it('refuses bad names with a sentence and stores nothing', async () => {
    const { client, id } = await verifiedUser(backend);
    for (const [body, message] of [
      [{ name: '' }, API_KEY_MESSAGES.nameEmpty],
      [{ name: '   ' }, API_KEY_MESSAGES.nameEmpty],
      [{}, API_KEY_MESSAGES.nameEmpty],
      [{ name: 42 }, API_KEY_MESSAGES.nameEmpty],
      ['just text', API_KEY_MESSAGES.nameEmpty],
      [{ name: 'two\nlines' }, API_KEY_MESSAGES.nameControl],
      [{ name: 'tab\there' }, API_KEY_MESSAGES.nameControl],
      [{ name: 'n'.repeat(61) }, API_KEY_MESSAGES.nameTooLong],
    ] as const) {
      const answer = await client.post<{ error: string }>('/api/keys', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.error).toBe(message);
    }
    expect(await keyRowsOf(id)).toEqual([]);
    expect((await client.post('/api/keys', { name: ` ${'n'.repeat(60)} ` })).status).toBe(201);
  });

  it('lets only a verified, unsuspended account create keys, and at most 20', async () => {
    const unverified = new TestClient(backend.app, backend.config.appUrl);
    const email = `keys.unverified.${Date.now()}@example.com`;
    expect((await unverified.signUp(email)).status).toBe(200);
    const refused = await unverified.post<{ error: string }>('/api/keys', { name: 'Too early' });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe(API_KEY_MESSAGES.unverified);

    const suspended = await verifiedUser(backend);
    await setFlag(backend.database.db, suspended.email, 'fraud', true);
    const flagged = await suspended.client.post<{ error: string }>('/api/keys', { name: 'Nope' });
    expect(flagged.status).toBe(403);
    expect(flagged.body.error).toBe(API_KEY_MESSAGES.suspended);
    expect(await keyRowsOf(suspended.id)).toEqual([]);

    const { client, id } = await verifiedUser(backend);
    await Promise.all(Array.from({ length: API_KEYS_PER_ACCOUNT }, (_, i) => createKey(client, `key ${i}`)));
    const tooMany = await client.post<{ error: string }>('/api/keys', { name: 'one more' });
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error).toBe(API_KEY_MESSAGES.tooMany);
    expect(await keyRowsOf(id)).toHaveLength(API_KEYS_PER_ACCOUNT);
  });

  it('needs a session: signed out gets 401', async () => {
    const nobody = new TestClient(backend.app, backend.config.appUrl);
    expect((await nobody.post('/api/keys', { name: 'x' })).status).toBe(401);
    expect((await nobody.get('/api/keys')).status).toBe(401);
  });
});

describe('calls with a key', () => {
  it("charges a key's tool call exactly as a session's, and reads its job, file, creations and balance", async () => {
    const { client, id } = await verifiedUser(backend, 100);
    const { key } = await createKey(client);

    const bySession = await client.post<{ charged: number; balance: number }>('/api/generate-image', generate);
    expect(bySession.status).toBe(200);
    const byKey = await withKey<{ success: boolean; jobId: string; output: string; charged: number; balance: number }>(
      key,
      'POST',
      '/api/generate-image',
      { body: generate },
    );
    expect(byKey.status, JSON.stringify(byKey.body)).toBe(200);
    expect(byKey.body.success).toBe(true);
    expect(byKey.body.charged).toBe(bySession.body.charged);
    expect(byKey.body.charged).toBeGreaterThan(0);
    expect(byKey.body.balance).toBe(100 - 2 * byKey.body.charged);

    const entries = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    const charges = entries.filter((e) => e.reason === 'job');
    expect(charges.map((e) => e.delta)).toEqual([-byKey.body.charged, -byKey.body.charged]);
    const [job] = await backend.database.db.select().from(jobs).where(eq(jobs.id, byKey.body.jobId));
    expect(job?.userId).toBe(id);

    const profile = await withKey<Profile>(key, 'GET', '/api/profile');
    expect(profile.status).toBe(200);
    expect(profile.body.tokens).toBe(byKey.body.balance);

    const jobRead = await withKey<{ id: string; status: string }>(key, 'GET', `/api/jobs/${byKey.body.jobId}`);
    expect(jobRead.status).toBe(200);
    expect(jobRead.body).toMatchObject({ id: byKey.body.jobId, status: 'succeeded' });

    const fileId = /\/api\/files\/([^/?]+)/.exec(byKey.body.output)?.[1];
    expect(fileId).toBeTruthy();
    const file = await backend.app.request(`/api/files/${fileId}`, { headers: { authorization: `Bearer ${key}` } });
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toMatch(/^image\//);
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const creations = await withKey<CreationList>(key, 'GET', '/api/creations');
    expect(creations.status).toBe(200);
    expect(creations.body.creations.map((c) => c.id)).toContain(byKey.body.jobId);
  });

  it("acts as the key's owner whatever cookies the request carries, and needs no Origin", async () => {
    const owner = await verifiedUser(backend, 100);
    const someoneElse = await verifiedUser(backend, 100);
    const { key } = await createKey(owner.client);
    const profile = await withKey<Profile>(key, 'GET', '/api/profile', {
      headers: { cookie: someoneElse.client.cookieHeader() },
    });
    expect(profile.body.email).toBe(owner.email);
    const call = await withKey<{ jobId: string }>(key, 'POST', '/api/generate-image', {
      body: generate,
      headers: { cookie: someoneElse.client.cookieHeader(), origin: 'https://evil.example' },
    });
    expect(call.status).toBe(200);
    const [job] = await backend.database.db.select().from(jobs).where(eq(jobs.id, call.body.jobId));
    expect(job?.userId).toBe(owner.id);
  });

  it('refuses a revoked key at once, and an unknown or malformed one, with 401 and no charge', async () => {
    const { client, id } = await verifiedUser(backend, 100);
    const made = await createKey(client);
    expect((await withKey(made.key, 'GET', '/api/profile')).status).toBe(200);
    expect((await client.request('DELETE', `/api/keys/${made.id}`)).status).toBe(204);

    const unknown = `pp_${'A'.repeat(43)}`;
    for (const key of [made.key, unknown, 'pp_short', 'not-a-key', '']) {
      const read = await withKey<{ error: string }>(key, 'GET', '/api/profile');
      expect(read.status, key).toBe(401);
      expect(read.body).toEqual({ error: API_KEY_MESSAGES.invalidKey });
      const call = await withKey<{ success: boolean; error: string }>(key, 'POST', '/api/generate-image', {
        body: generate,
      });
      expect(call.status, key).toBe(401);
      expect(call.body).toEqual({ success: false, error: API_KEY_MESSAGES.invalidKey });
    }
    const profile = await client.get<Profile>('/api/profile');
    expect(profile.body.tokens).toBe(100);
    expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toEqual([]);
  });

  it('cannot manage keys, change or delete the account, buy tokens or export: 403 with a sentence', async () => {
    const { client, id, email } = await verifiedUser(backend, 100);
    const made = await createKey(client);
    const refused: [string, string, unknown?][] = [
      ['POST', '/api/keys', { name: 'from a key' }],
      ['GET', '/api/keys'],
      ['DELETE', `/api/keys/${made.id}`],
      ['GET', '/api/account'],
      ['DELETE', '/api/account', {}],
      ['POST', '/api/account/email', { email: 'stolen@example.com' }],
      ['POST', '/api/account/password', { newPassword: 'taken over 123' }],
      ['POST', '/api/create-checkout-session', { packageId: 'starter' }],
      ['GET', '/api/account/export'],
      ['POST', '/api/profile/verification-email', {}],
      ['POST', '/api/auth/update-user', { name: 'Someone else' }],
      ['POST', '/api/auth/change-password', { currentPassword: 'x', newPassword: 'taken over 123' }],
      ['GET', '/api/auth/get-session'],
      ['GET', '/api/jobs'],
      ['DELETE', `/api/creations/00000000-0000-4000-8000-000000000000`],
      ['GET', '/api/purchases'],
    ];
    for (const [method, path, body] of refused) {
      const answer = await withKey<{ error: string }>(made.key, method, path, { body });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.error).toBe(API_KEY_MESSAGES.sessionRequired);
    }
    // Nothing changed: the key, the account, its email and balance.
    expect(await keyRowsOf(id)).toHaveLength(1);
    const [row] = await backend.database.db.select().from(user).where(eq(user.id, id));
    expect(row?.email).toBe(email);
    expect(row?.name).not.toBe('Someone else');
    expect((await client.get<Profile>('/api/profile')).body.tokens).toBe(100);
  });

  it("refuses a suspended owner's tool call as it refuses the session's", async () => {
    const { client, email } = await verifiedUser(backend, 100);
    const { key } = await createKey(client);
    await setFlag(backend.database.db, email, 'fraud', true);
    const call = await withKey<{ error: string }>(key, 'POST', '/api/generate-image', { body: generate });
    expect(call.status).toBe(403);
    expect(call.body.error).toBe(TOOL_MESSAGES.fraud);
    expect((await client.get<Profile>('/api/profile')).body.tokens).toBe(100);
  });

  it('stops working when its owner deletes the account: the keys and the webhook secret go with it (issue 53)', async () => {
    const { client, id } = await verifiedUser(backend, 100);
    const { key } = await createKey(client);
    expect((await client.get('/api/webhook-secret')).status).toBe(200);
    expect((await client.request('DELETE', '/api/account')).status).toBe(204);
    for (const [method, path, body] of [
      ['GET', '/api/profile'],
      ['GET', '/api/creations'],
      ['POST', '/api/generate-image', generate],
    ] as const) {
      const answer = await withKey<{ error: string }>(key, method, path, { body });
      expect([answer.status, answer.body.error], `${method} ${path}`).toEqual([401, API_KEY_MESSAGES.invalidKey]);
    }
    expect(await keyRowsOf(id)).toEqual([]);
    expect(await backend.database.db.select().from(webhookSecrets).where(eq(webhookSecrets.userId, id))).toEqual([]);
  });

  it('cannot view, pay or cancel a local checkout: 403 with a sentence, nothing credited (issue 53)', async () => {
    const { client, id } = await verifiedUser(backend, 100);
    const { key } = await createKey(client);
    const checkout = await client.post<{ url: string }>('/api/create-checkout-session', { priceId: 'price_local_500' });
    expect(checkout.status).toBe(200);
    for (const [method, path] of [
      ['GET', checkout.body.url],
      ['POST', `${checkout.body.url}/pay`],
      ['POST', `${checkout.body.url}/cancel`],
    ] as const) {
      const answer = await withKey<{ error: string }>(key, method, path);
      expect([answer.status, answer.body.error], `${method} ${path}`).toEqual([403, API_KEY_MESSAGES.sessionRequired]);
    }
    expect(await backend.database.db.select().from(ledger).where(eq(ledger.userId, id))).not.toContainEqual(
      expect.objectContaining({ reason: 'purchase' }),
    );
    expect((await client.get<Profile>('/api/profile')).body.tokens).toBe(100);
    // Still open: the owner's own browser pays it.
    expect((await client.post(`${checkout.body.url}/pay`)).status).toBe(303);
    expect((await client.get<Profile>('/api/profile')).body.tokens).toBe(600);
  });

  it('writes its last use at most once a minute', async () => {
    const { client, id } = await verifiedUser(backend, 100);
    const made = await createKey(client);
    await withKey(made.key, 'GET', '/api/profile');
    const [first] = await keyRowsOf(id);
    expect(first?.lastUsedAt).toBeInstanceOf(Date);
    await withKey(made.key, 'GET', '/api/creations');
    expect((await keyRowsOf(id))[0]?.lastUsedAt?.getTime()).toBe(first?.lastUsedAt?.getTime());
    const listed = await client.get<ApiKeyList>('/api/keys');
    expect(listed.body.keys[0]?.lastUsedAt).toBe(first?.lastUsedAt?.toISOString());

    await backend.database.db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now() - interval '2 minutes'` })
      .where(eq(apiKeys.id, made.id));
    const before = (await keyRowsOf(id))[0]?.lastUsedAt?.getTime() ?? 0;
    await withKey(made.key, 'GET', '/api/profile');
    expect((await keyRowsOf(id))[0]?.lastUsedAt?.getTime()).toBeGreaterThan(before);
  });
});

describe('RateLimit headers', () => {
  it("count a key's tool calls, show the window on its reads without counting, and 429 with Retry-After", async () => {
    const { client } = await verifiedUser(backend, 100);
    const { key } = await createKey(client);

    const before = await withKey(key, 'GET', '/api/profile');
    expect(rateHeaders(before.headers)).toEqual({ limit: String(CALLS_PER_MINUTE), remaining: '5', reset: 60 });

    const first = await withKey(key, 'POST', '/api/generate-image', { body: generate });
    expect(first.status).toBe(200);
    const counted = rateHeaders(first.headers);
    expect(counted.limit).toBe(String(CALLS_PER_MINUTE));
    expect(counted.remaining).toBe('4');
    expect(counted.reset).toBeGreaterThanOrEqual(1);
    expect(counted.reset).toBeLessThanOrEqual(60);

    // A refused call is counted too (it cost the server something), and says so.
    const bad = await withKey(key, 'POST', '/api/generate-image', { body: { prompt: '' } });
    expect(bad.status).toBe(400);
    expect(rateHeaders(bad.headers).remaining).toBe('3');

    // Reads: the same window, not counted.
    for (const path of ['/api/profile', '/api/creations']) {
      const read = await withKey(key, 'GET', path);
      expect(rateHeaders(read.headers).remaining, path).toBe('3');
    }
    // The session's tool calls count in the same window (per account) and carry the headers too.
    const bySession = await client.post('/api/generate-image', generate);
    expect(rateHeaders(bySession.headers).remaining).toBe('2');

    await withKey(key, 'POST', '/api/generate-image', { body: generate });
    const last = await withKey(key, 'POST', '/api/generate-image', { body: generate });
    expect(rateHeaders(last.headers).remaining).toBe('0');
    const balance = (await client.get<Profile>('/api/profile')).body.tokens;

    const limited = await withKey<{ error: string; retryAfterSeconds: number }>(key, 'POST', '/api/generate-image', {
      body: generate,
    });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe(TOOL_MESSAGES.tooManyCalls);
    const retryAfter = Number(limited.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(rateHeaders(limited.headers)).toEqual({
      limit: String(CALLS_PER_MINUTE),
      remaining: '0',
      reset: retryAfter,
    });
    expect((await client.get<Profile>('/api/profile')).body.tokens).toBe(balance);
  });
});
