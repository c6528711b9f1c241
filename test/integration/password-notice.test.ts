// "Your password was changed" (issue 54 item 6): the account's address hears of every new password,
// as the old address hears of an email change: changed in User Settings, reset with the mailed link,
// or a first one for a Google-only account. A refused change sends nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findLinks, listOutbox } from '../../src/server/mail/outbox-mailer';
import { TestClient } from '../support/http-client';
import { startOidcServer } from '../support/oidc-server';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';

let backend: TestBackend;
let oidc: Awaited<ReturnType<typeof startOidcServer>>;
let counter = 0;
const newEmail = () => `notice${++counter}.${Date.now()}@example.com`;
const client = () => new TestClient(backend.app, backend.config.appUrl);

beforeAll(async () => {
  oidc = await startOidcServer();
  backend = await createTestBackend({ env: oidc.serverEnv });
});
afterAll(async () => {
  await backend?.stop();
  await oidc?.stop();
});

const SUBJECT = 'Your Picture Palette password was changed';

/** The password notices mailed to `address`. */
const noticesTo = async (address: string) =>
  (await listOutbox(backend.database, { limit: 500 })).filter((m) => m.to === address && m.subject === SUBJECT);

async function signedUp(password = 'old password 123') {
  const browser = client();
  const email = newEmail();
  expect((await browser.signUp(email, password)).status).toBe(200);
  return { browser, email };
}

describe('a new password', () => {
  it('changed in User Settings: the address is told once; a wrong current password tells nothing', async () => {
    const { browser, email } = await signedUp();
    const wrong = await browser.post('/api/auth/change-password', {
      currentPassword: 'not my password',
      newPassword: 'new password 456',
    });
    expect(wrong.status).toBe(400);
    expect(await noticesTo(email)).toEqual([]);

    const changed = await browser.post('/api/auth/change-password', {
      currentPassword: 'old password 123',
      newPassword: 'new password 456',
    });
    expect(changed.status).toBe(200);
    const notices = await noticesTo(email);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('Your password was changed');
    expect(notices[0]?.text).toContain('was just changed in User Settings');
    expect(notices[0]?.text).toContain("If you didn't make it, someone else may be in your account");
    expect(findLinks(notices[0]?.text ?? '')).toContain(backend.config.appUrl);
  });

  it('reset with the mailed link: the address is told', async () => {
    const { email } = await signedUp();
    const requester = client();
    const asked = await requester.post('/api/auth/request-password-reset', {
      email,
      redirectTo: `${backend.config.appUrl}/reset-password`,
    });
    expect(asked.status).toBe(200);
    const mail = await eventually(async () =>
      (await listOutbox(backend.database, { limit: 500 })).find((m) => m.to === email && /^Reset/.test(m.subject)),
    );
    const link = findLinks(mail.text).find((l) => l.includes('/reset-password/'));
    if (!link) throw new Error('no reset link in the mail');
    const landing = await requester.get(new URL(link).pathname + new URL(link).search);
    const token = new URL(landing.headers.get('location') as string, backend.config.appUrl).searchParams.get('token');
    expect(await noticesTo(email)).toEqual([]);

    const reset = await requester.post('/api/auth/reset-password', { token, newPassword: 'new password 456' });
    expect(reset.status).toBe(200);
    const notices = await noticesTo(email);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('was just reset with the link we emailed you');
  });

  it('set first on a Google-only account: the address is told a password was added', async () => {
    const email = `g.notice.${Date.now()}@gmail.test`;
    oidc.nextUser({ sub: `g-notice-${Date.now()}`, email, emailVerified: true, name: 'Gia' });
    const browser = client();
    const start = await browser.post<{ url: string }>('/api/auth/sign-in/social', {
      provider: 'google',
      callbackURL: `${backend.config.appUrl}/auth/popup-done.html`,
      disableRedirect: true,
    });
    const approval = await fetch(start.body.url, { redirect: 'manual' });
    const callback = new URL(approval.headers.get('location') as string);
    expect((await browser.get(callback.pathname + callback.search)).status).toBe(302);

    const tooShort = await browser.post('/api/account/password', { newPassword: 'short' });
    expect(tooShort.status).toBe(400);
    expect(await noticesTo(email)).toEqual([]);

    expect((await browser.post('/api/account/password', { newPassword: 'my new password 1' })).status).toBe(200);
    const notices = await noticesTo(email);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain('A password was added to your account');
  });
});
