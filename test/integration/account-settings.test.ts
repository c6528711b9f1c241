// User Settings' changes to the account (issue 38): the name, the password (current + new, other
// sessions end), the email (verified at the new address before it takes effect, the old one told),
// a first password for a Google-only account, and the confirmation a stale session must give.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountDetails, Profile } from '../../src/contract/accounts';
import { session, user } from '../../src/server/db/schema';
import { findLinks, listOutbox } from '../../src/server/mail/outbox-mailer';
import { TestClient } from '../support/http-client';
import { startOidcServer } from '../support/oidc-server';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';

let backend: TestBackend;
let oidc: Awaited<ReturnType<typeof startOidcServer>>;
let counter = 0;
const newEmail = () => `settings${++counter}.${Date.now()}@example.com`;
const client = () => new TestClient(backend.app, backend.config.appUrl);

beforeAll(async () => {
  oidc = await startOidcServer();
  backend = await createTestBackend({ env: oidc.serverEnv });
});
afterAll(async () => {
  await backend?.stop();
  await oidc?.stop();
});

async function signedUp(password = 'correct horse 42') {
  const browser = client();
  const email = newEmail();
  expect((await browser.signUp(email, password)).status).toBe(200);
  const id = (await browser.get<{ user: { id: string } }>('/api/auth/get-session')).body.user.id;
  return { browser, email, id };
}

/** The session was signed in 20 minutes ago: too long for the changes that hand the account over. */
const makeStale = (userId: string) =>
  backend.database.db
    .update(session)
    .set({ createdAt: sql`now() - interval '20 minutes'` })
    .where(eq(session.userId, userId));

/** The mails of the email change to `address` (not the sign-up's verification mail). */
const mailsTo = async (address: string) =>
  (await listOutbox(backend.database, { limit: 500 })).filter(
    (m) => m.to === address && !/^Verify your email/.test(m.subject),
  );

const rowOf = async (id: string) => (await backend.database.db.select().from(user).where(eq(user.id, id)))[0];

describe('name', () => {
  it('stores the name trimmed, and refuses an empty one or one with control characters without changing it', async () => {
    const { browser, id } = await signedUp();
    expect((await browser.post('/api/auth/update-user', { name: '  Grace Hopper ' })).status).toBe(200);
    expect((await browser.get<AccountDetails>('/api/account')).body.name).toBe('Grace Hopper');

    for (const [name, message] of [
      ['   ', 'Please enter a name.'],
      ['', 'Please enter a name.'],
      [42, 'Please enter a name.'],
      ['Grace\nHopper', 'Your name can’t contain line breaks, tabs or other control characters.'],
      ['Grace\tHopper', 'Your name can’t contain line breaks, tabs or other control characters.'],
      ['n'.repeat(101), 'Name must be at most 100 characters.'],
    ] as const) {
      const answer = await browser.post<{ message: string }>('/api/auth/update-user', { name });
      expect(answer.status, JSON.stringify(name)).toBe(400);
      expect(answer.body.message).toBe(message);
    }
    expect((await rowOf(id))?.name).toBe('Grace Hopper');
    expect((await browser.post('/api/auth/update-user', { name: ` ${'n'.repeat(100)} ` })).status).toBe(200);
  });
});

describe('password change', () => {
  it('refuses a wrong current password or a short new one in sentences, and keeps the old password', async () => {
    const { browser, email } = await signedUp('old password 123');
    const wrong = await browser.post<{ code: string }>('/api/auth/change-password', {
      currentPassword: 'not my password',
      newPassword: 'new password 456',
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INVALID_PASSWORD');
    const short = await browser.post<{ message: string }>('/api/auth/change-password', {
      currentPassword: 'old password 123',
      newPassword: 'short',
    });
    expect(short.status).toBe(400);
    expect(short.body.message).toBe('Your new password must be at least 8 characters long.');
    expect((await client().signIn(email, 'old password 123')).status).toBe(200);
    expect((await client().signIn(email, 'new password 456')).status).not.toBe(200);
  });
});

describe('email change', () => {
  it('changes the address only once the link mailed to it is opened, verifies it, and tells the old address', async () => {
    const { browser, email, id } = await signedUp();
    const target = newEmail();
    const asked = await browser.post<{ sentTo: string; message: string }>('/api/account/email', {
      newEmail: ` ${target.toUpperCase()} `,
    });
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({
      sentTo: target,
      message: `We sent a link to ${target}. Your email changes once you open it (within an hour).`,
    });

    // Not yet: the account still signs in with the old address.
    expect((await rowOf(id))?.email).toBe(email);
    expect((await browser.get<Profile>('/api/profile')).body.email).toBe(email);
    expect((await client().signIn(target)).status).not.toBe(200);
    expect(await mailsTo(email)).toEqual([]);

    const mail = await eventually(async () => (await mailsTo(target)).find((m) => /new email/.test(m.subject)));
    expect(mail.text).toContain(`from ${email} to this address`);
    const link = findLinks(mail.text).find((l) => l.includes('/verify-email'));
    if (!link) throw new Error('no link in the mail');
    const opened = await client().get(new URL(link).pathname + new URL(link).search);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('/user-settings?emailChanged=1');

    const row = await rowOf(id);
    expect(row?.email).toBe(target);
    expect(row?.emailVerified).toBe(true);
    expect((await browser.get<Profile>('/api/profile')).body.email).toBe(target);
    expect((await client().signIn(target)).status).toBe(200);
    expect((await client().signIn(email)).status).not.toBe(200);

    const notices = await eventually(async () => {
      const found = (await mailsTo(email)).filter((m) => /was changed/.test(m.subject));
      return found.length > 0 ? found : null;
    });
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain(`is now ${target}`);

    // The link works once: the account has moved on.
    const again = await client().get(new URL(link).pathname + new URL(link).search);
    expect(again.headers.get('location')).toContain('error=');
    expect((await rowOf(id))?.email).toBe(target);
    expect((await mailsTo(email)).filter((m) => /was changed/.test(m.subject))).toHaveLength(1);
  });

  it('changes nothing when the new address became another account’s before the link was opened, and says why', async () => {
    const { browser, email, id } = await signedUp();
    const target = newEmail();
    expect((await browser.post('/api/account/email', { newEmail: target })).status).toBe(200);
    const mail = await eventually(async () => (await mailsTo(target)).find((m) => /new email/.test(m.subject)));
    const link = findLinks(mail.text).find((l) => l.includes('/verify-email'));
    if (!link) throw new Error('no link in the mail');
    // Someone signs up with that address meanwhile.
    expect((await client().signUp(target, 'another person 42')).status).toBe(200);

    const opened = await client().get(new URL(link).pathname + new URL(link).search);
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('/user-settings?emailChanged=1&error=EMAIL_TAKEN');
    expect((await rowOf(id))?.email).toBe(email);
    expect((await client().signIn(email)).status).toBe(200);
    expect((await mailsTo(email)).filter((m) => /was changed/.test(m.subject))).toEqual([]);
  });

  it('refuses an address of another account, the same address or no address, and sends nothing', async () => {
    const { browser, email, id } = await signedUp();
    const other = await signedUp();
    for (const [newEmailValue, message] of [
      [other.email.toUpperCase(), 'That email address belongs to another account. Please use a different one.'],
      [email, 'That is already your email address.'],
      ['not an address', 'Please enter a valid email address, like name@example.com.'],
      [undefined, 'Please enter a valid email address, like name@example.com.'],
    ] as const) {
      const answer = await browser.post<{ error: string }>('/api/account/email', { newEmail: newEmailValue });
      expect(answer.status, String(newEmailValue)).toBe(400);
      expect(answer.body.error).toBe(message);
    }
    expect((await rowOf(id))?.email).toBe(email);
    expect(await mailsTo(other.email)).toEqual([]);
  });

  it('asks a stale session for the password first, and refuses a wrong one', async () => {
    const { browser, email, id } = await signedUp();
    await makeStale(id);
    const target = newEmail();
    const stale = await browser.post('/api/account/email', { newEmail: target });
    expect([stale.status, stale.body]).toEqual([
      403,
      { error: 'To change your email, confirm it’s you: enter your password.', reauth: 'password' },
    ]);
    const wrong = await browser.post('/api/account/email', { newEmail: target, password: 'wrong password' });
    expect(wrong.status).toBe(400);
    expect(await mailsTo(target)).toEqual([]);
    const right = await browser.post('/api/account/email', { newEmail: target, password: 'correct horse 42' });
    expect(right.status).toBe(200);
    expect((await rowOf(id))?.email).toBe(email);
    await eventually(async () => (await mailsTo(target)).length > 0 || null);
  });
});

describe('a Google-only account', () => {
  /** What the popup does: start, let the provider approve, come back to our callback. */
  async function signInWithGoogle(browser: TestClient) {
    const start = await browser.post<{ url: string }>('/api/auth/sign-in/social', {
      provider: 'google',
      callbackURL: `${backend.config.appUrl}/auth/popup-done.html`,
      disableRedirect: true,
    });
    expect(start.status).toBe(200);
    const approval = await fetch(start.body.url, { redirect: 'manual' });
    const callback = new URL(approval.headers.get('location') as string);
    expect((await browser.get(callback.pathname + callback.search)).status).toBe(302);
  }

  it('sets a first password after a recent Google sign-in, then signs in with it; a second time is refused', async () => {
    const email = `g.only.${Date.now()}@gmail.test`;
    const sub = `g-settings-${Date.now()}`;
    oidc.nextUser({ sub, email, emailVerified: true, name: 'Gia' });
    const browser = client();
    await signInWithGoogle(browser);
    const details = await browser.get<AccountDetails>('/api/account');
    expect(details.body).toMatchObject({ email, name: 'Gia', hasPassword: false, hasGoogle: true });
    const id = (await browser.get<{ user: { id: string } }>('/api/auth/get-session')).body.user.id;

    const tooShort = await browser.post<{ error: string }>('/api/account/password', { newPassword: 'short' });
    expect([tooShort.status, tooShort.body.error]).toEqual([
      400,
      'Your new password must be at least 8 characters long.',
    ]);

    await makeStale(id);
    const stale = await browser.post('/api/account/password', { newPassword: 'my new password 1' });
    expect([stale.status, stale.body]).toEqual([
      403,
      { error: 'To set a password, confirm it’s you: sign in with Google again.', reauth: 'google' },
    ]);
    const deletion = await browser.request('DELETE', '/api/account', { body: { password: 'anything 123' } });
    expect(deletion.status).toBe(400);
    expect((await browser.request('DELETE', '/api/account')).body).toMatchObject({ reauth: 'google' });

    oidc.nextUser({ sub, email, emailVerified: true, name: 'Gia' });
    await signInWithGoogle(browser);
    expect((await browser.post('/api/account/password', { newPassword: 'my new password 1' })).status).toBe(200);
    expect((await browser.get<AccountDetails>('/api/account')).body.hasPassword).toBe(true);
    expect((await client().signIn(email, 'my new password 1')).status).toBe(200);
    const second = await browser.post<{ error: string }>('/api/account/password', { newPassword: 'another one 22' });
    expect([second.status, second.body.error]).toEqual([
      400,
      'Your account already has a password. Change it with your current password instead.',
    ]);
  });
});
