// The session fast path (auth/session.ts) must answer exactly as better-auth would: the same user,
// nobody for a forged or revoked cookie, and better-auth's own writes (sliding refresh, deleting an
// expired session) still happen.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session } from '../../src/server/db/schema';
import { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { verifiedUser } from '../support/tool-fixtures';

const DAY = 24 * 3600 * 1000;

describe('reading the session of an API call', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  const sessionOf = async (userId: string) =>
    (await backend.database.db.select().from(session).where(eq(session.userId, userId)))[0];

  it('knows the signed-in user', async () => {
    const { client, email } = await verifiedUser(backend);
    const profile = await client.get<{ email: string; emailVerified: boolean }>('/api/profile');
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ email, emailVerified: true });
  });

  it('refuses a cookie whose signature was tampered with', async () => {
    const { client } = await verifiedUser(backend);
    const forged = client.cookieHeader().replace(/(session_token=[^.;]+\.)([^;]{4})/, '$1AAAA');
    expect(forged).not.toBe(client.cookieHeader());
    const response = await backend.app.request('/api/profile', {
      headers: { cookie: forged, origin: backend.config.appUrl },
    });
    expect(response.status).toBe(401);
  });

  it('refuses a cookie signed with another secret for the same token', async () => {
    const { client } = await verifiedUser(backend);
    const token = /session_token=([^.;]+)\./.exec(decodeURIComponent(client.cookieHeader()))?.[1];
    expect(token).toBeTruthy();
    const { createHmac } = await import('node:crypto');
    const signature = createHmac('sha256', 'not-our-secret-at-all-not-our-secret')
      .update(String(token))
      .digest('base64');
    const cookie = `pp.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
    const response = await backend.app.request('/api/profile', { headers: { cookie, origin: backend.config.appUrl } });
    expect(response.status).toBe(401);
  });

  it('signs out a revoked session on its very next call', async () => {
    const { client, id } = await verifiedUser(backend);
    expect((await client.get('/api/profile')).status).toBe(200);
    await backend.database.db.delete(session).where(eq(session.userId, id));
    expect((await client.get('/api/profile')).status).toBe(401);
  });

  it('still slides the expiry of a session due for refresh', async () => {
    const { client, id } = await verifiedUser(backend);
    // better-auth's defaults: 7 days, refreshed once a day has passed.
    await backend.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() + 5 * DAY) })
      .where(eq(session.userId, id));
    expect((await client.get('/api/profile')).status).toBe(200);
    const refreshed = await sessionOf(id);
    expect(refreshed?.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6.9 * DAY);
  });

  it('answers an expired session as signed out and removes it', async () => {
    const { client, id } = await verifiedUser(backend);
    await backend.database.db
      .update(session)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(session.userId, id));
    expect((await client.get('/api/profile')).status).toBe(401);
    expect(await sessionOf(id)).toBeUndefined();
  });

  it('answers a request without cookies as signed out', async () => {
    const anonymous = new TestClient(backend.app, backend.config.appUrl);
    expect((await anonymous.get('/api/profile')).status).toBe(401);
  });
});
