// TOOL_CALLS_PER_MINUTE: an account cannot make the server work for it without bound, whether its
// calls are valid, refused or unaffordable. Counted in the database (shared by every web process).
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNUP_TOKENS } from '../../src/contract/accounts';
import { TOOL_MESSAGES } from '../../src/contract/tools';
import { session } from '../../src/server/db/schema';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { paidLookalikeOfDemo, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  // A provider that charges (a demo is free), so that a charge shows.
  backend = await createTestBackend({
    env: { TOOL_CALLS_PER_MINUTE: '3' },
    inference: routerWith(paidLookalikeOfDemo()),
  });
});
afterAll(() => backend.stop());

/** The user's count in the current window, as the call's statement left it. */
const countOf = async (userId: string) =>
  Number(
    (await backend.database.executeSql('select count from rate_limit where key = $1', [`tool-calls:${userId}`])).rows[0]
      ?.count ?? 0,
  );

describe('tool calls per minute', () => {
  // The session is read, the call counted and the caller read in one statement, before the session
  // is judged (jobs/request/tool-call-limit.ts): better-auth's own writes must still happen, once.
  it('counts a call made with a session due for its refresh once, and slides the session', async () => {
    const { client, id } = await verifiedUser(backend, 100);
    const fiveDays = new Date(Date.now() + 5 * 24 * 3600 * 1000);
    await backend.database.db.update(session).set({ expiresAt: fiveDays }).where(eq(session.userId, id));
    expect((await client.post('/api/generate-image', { prompt: 'refresh me' })).status).toBe(200);
    expect(await countOf(id)).toBe(1);
    const [row] = await backend.database.db.select().from(session).where(eq(session.userId, id));
    expect(row?.expiresAt.getTime()).toBeGreaterThan(fiveDays.getTime());
  });

  it('answers a call with an expired session 401, charging nothing, and removes the session', async () => {
    const { client, id } = await verifiedUser(backend, 100);
    await backend.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.userId, id));
    const refused = await client.post<{ error: string }>('/api/generate-image', { prompt: 'too late' });
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe(TOOL_MESSAGES.signInRequired);
    expect(await backend.database.db.select().from(session).where(eq(session.userId, id))).toEqual([]);
    const balance = await backend.database.executeSql('select tokens from profiles where user_id = $1', [id]);
    expect(Number(balance.rows[0]?.tokens)).toBe(100);
  });

  it('answers the call past the limit 429 with Retry-After and the reason, charging nothing', async () => {
    const { client } = await verifiedUser(backend, 100);
    for (let i = 0; i < 3; i++) {
      expect((await client.post('/api/generate-image', { prompt: `call ${i}` })).status).toBe(200);
    }
    const balance = await tokensOf(client);
    const refused = await client.post<{ success: boolean; error: string; retryAfterSeconds: number }>(
      '/api/generate-image',
      {
        prompt: 'one too many',
      },
    );
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: false, error: TOOL_MESSAGES.tooManyCalls });
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.retryAfterSeconds).toBe(retryAfter);
    expect(await tokensOf(client)).toBe(balance);
  });

  it('counts refused calls too (bad input is work for the server), and only the caller’s', async () => {
    const { client: flooder } = await verifiedUser(backend, 100);
    const { client: neighbour } = await verifiedUser(backend, 100);
    for (let i = 0; i < 3; i++) {
      expect((await flooder.post('/api/generate-image', { prompt: 'bad\u0000' })).status).toBe(400);
    }
    expect((await flooder.post('/api/generate-image', { prompt: 'now valid' })).status).toBe(429);
    expect((await neighbour.post('/api/generate-image', { prompt: 'my first call' })).status).toBe(200);
  });

  it('opens again when the minute is over', async () => {
    const { client, id } = await verifiedUser(backend, 100);
    for (let i = 0; i < 3; i++) await client.post('/api/generate-image', { prompt: 'x' });
    expect((await client.post('/api/generate-image', { prompt: 'x' })).status).toBe(429);
    // The window started a minute ago.
    await backend.database.db.execute(
      sql`update rate_limit set last_request = last_request - 61000 where key = ${`tool-calls:${id}`}`,
    );
    expect((await client.post('/api/generate-image', { prompt: 'x' })).status).toBe(200);
  });

  it('holds under concurrent calls: exactly the limit gets through', async () => {
    const { client } = await verifiedUser(backend, 100);
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.post('/api/generate-image', { prompt: `burst ${i}` })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
  });
});

describe('a caller without a profile row (its creation at sign-up failed)', () => {
  it('has it made by the tool call, with the sign-up tokens, charges it and counts its output’s bytes', async () => {
    const { client, id } = await verifiedUser(backend);
    await backend.database.executeSql('delete from ledger where user_id = $1', [id]);
    await backend.database.executeSql('delete from profiles where user_id = $1', [id]);
    const call = await client.post<{ balance: number }>('/api/generate-image', { prompt: 'a profile made late' });
    expect(call.status).toBe(200);
    expect(call.body.balance).toBe(SIGNUP_TOKENS - 1);
    expect(await tokensOf(client)).toBe(SIGNUP_TOKENS - 1);
    const [profile] = (await backend.database.executeSql('select storage_used from profiles where user_id = $1', [id]))
      .rows;
    expect(Number(profile?.storage_used)).toBeGreaterThan(0);
  });
});
