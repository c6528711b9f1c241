// Google sign-in end to end against a local OpenID Connect server: the authorization redirect,
// the code exchange and the callback create the account with its profile, like email sign-up.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Profile } from '../../src/contract/accounts';
import { ledger, user } from '../../src/server/db/schema';
import { listOutbox } from '../../src/server/mail/outbox-mailer';
import { TestClient } from '../support/http-client';
import { startOidcServer } from '../support/oidc-server';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { tokensOf } from '../support/tool-fixtures';

describe('Google sign-in', () => {
  let oidc: Awaited<ReturnType<typeof startOidcServer>>;
  let backend: TestBackend;
  beforeAll(async () => {
    oidc = await startOidcServer();
    backend = await createTestBackend({ env: oidc.serverEnv });
  });
  afterAll(async () => {
    await backend?.stop();
    await oidc?.stop();
  });

  /** What the popup does: start, let the provider approve, come back to our callback. */
  async function signInWithGoogle(browser: TestClient) {
    const start = await browser.post<{ url: string }>('/api/auth/sign-in/social', {
      provider: 'google',
      callbackURL: `${backend.config.appUrl}/auth/popup-done.html`,
      errorCallbackURL: `${backend.config.appUrl}/auth/popup-done.html?error=1`,
      disableRedirect: true,
    });
    expect(start.status).toBe(200);
    expect(start.body.url.startsWith(oidc.issuer)).toBe(true);
    const approval = await fetch(start.body.url, { redirect: 'manual' });
    expect(approval.status).toBe(302);
    const callback = new URL(approval.headers.get('location') as string);
    expect(callback.pathname).toBe('/api/auth/callback/google');
    return browser.get(callback.pathname + callback.search);
  }

  it('creates the account with 20 tokens and a verified address when Google vouches for it', async () => {
    oidc.nextUser({ sub: 'g-100', email: 'ada@gmail.test', emailVerified: true, name: 'Ada' });
    const browser = new TestClient(backend.app, backend.config.appUrl);
    const done = await signInWithGoogle(browser);
    expect(done.status).toBe(302);
    expect(done.headers.get('location')).toBe(`${backend.config.appUrl}/auth/popup-done.html`);

    const profile = await browser.get<Profile>('/api/profile');
    expect(profile.body).toMatchObject({ email: 'ada@gmail.test', tokens: 20, emailVerified: true });
    const [row] = await backend.database.db.select().from(user).where(eq(user.email, 'ada@gmail.test'));
    const rows = await backend.database.db
      .select()
      .from(ledger)
      .where(eq(ledger.userId, row?.id as string));
    expect(rows).toHaveLength(1);
    const customer = await eventually(async () => (await browser.get<Profile>('/api/profile')).body.stripeCustomerId);
    expect(customer).toMatch(/^cus_local_/);
    const mails = (await listOutbox(backend.database, { limit: 50 })).filter((m) => m.to === 'ada@gmail.test');
    expect(mails).toEqual([]);
  });

  it('sends a verification mail when the address is not verified by Google', async () => {
    oidc.nextUser({ sub: 'g-200', email: 'grace@gmail.test', emailVerified: false, name: 'Grace' });
    const browser = new TestClient(backend.app, backend.config.appUrl);
    expect((await signInWithGoogle(browser)).status).toBe(302);
    expect((await browser.get<Profile>('/api/profile')).body).toMatchObject({ tokens: 20, emailVerified: false });
    await eventually(async () =>
      (await listOutbox(backend.database, { limit: 50 })).find((m) => m.to === 'grace@gmail.test'),
    );
  });

  it('signs the same Google user in again without a second bonus', async () => {
    oidc.nextUser({ sub: 'g-300', email: 'linus@gmail.test', emailVerified: true, name: 'Linus' });
    await signInWithGoogle(new TestClient(backend.app, backend.config.appUrl));
    const again = new TestClient(backend.app, backend.config.appUrl);
    expect((await signInWithGoogle(again)).status).toBe(302);
    expect(await tokensOf(again)).toBe(20);
  });

  it('keeps the first 100 characters of a longer name from the provider, and signs in', async () => {
    oidc.nextUser({ sub: 'g-400', email: 'long@gmail.test', emailVerified: true, name: 'N'.repeat(5000) });
    const browser = new TestClient(backend.app, backend.config.appUrl);
    expect((await signInWithGoogle(browser)).status).toBe(302);
    expect((await browser.get<Profile>('/api/profile')).body).toMatchObject({ email: 'long@gmail.test' });
    const [row] = await backend.database.db.select().from(user).where(eq(user.email, 'long@gmail.test'));
    expect(row?.name).toBe('N'.repeat(100));
  });

  it('tells the browser that Google is on', async () => {
    const config = await new TestClient(backend.app, backend.config.appUrl).get('/api/config');
    expect(config.body).toMatchObject({ googleSignIn: true });
  });
});

describe('without Google configured', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  it('has no Google endpoint to start', async () => {
    const browser = new TestClient(backend.app, backend.config.appUrl);
    const start = await browser.post('/api/auth/sign-in/social', { provider: 'google', callbackURL: '/' });
    expect(start.status).toBe(404);
  });
});
