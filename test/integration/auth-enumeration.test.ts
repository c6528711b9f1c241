// Sign-up and password reset must not tell who has an account by their timing (issue 36): a reset
// answers a real and an unknown address alike without waiting for the mail server, and sign-up's
// "User already exists" (the spec's message) spends the password hash a new account's answer spends
// (before, it came 5-10 ms against a new account's 60-100 ms). Checked by the work done and the
// order of events, not by a clock: a mail server that answers only when the test lets it, and the
// password hasher's calls counted.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Auth, createAuth } from '../../src/server/auth/auth';
import { CLIENT_IP_HEADER } from '../../src/server/auth/client-ip';
import { quietLogger } from '../../src/server/log';
import type { Mailer, MailMessage } from '../../src/server/mail/mailer';
import { createTestDatabase, eventually, type TestDatabase, testConfig } from '../support/test-backend';

describe('account enumeration by timing', () => {
  let database: TestDatabase;
  let auth: Auth;
  /** Mails handed to the mail server, which holds each until the test lets it go (or the file ends). */
  const handedOver: Array<{ message: MailMessage; letGo: () => void }> = [];
  const sent: MailMessage[] = [];
  const config = testConfig();
  beforeAll(async () => {
    database = await createTestDatabase();
    const holdingMailer: Mailer = {
      kind: 'smtp',
      send: (message) =>
        new Promise<void>((resolve) => {
          handedOver.push({
            message,
            letGo: () => {
              sent.push(message);
              resolve();
            },
          });
        }),
    };
    auth = createAuth({
      config,
      database,
      mailer: holdingMailer,
      logger: quietLogger(),
      secret: 'a test secret of enough length for better-auth',
      onUserCreated: async () => {},
    });
  });
  afterAll(async () => {
    for (const mail of handedOver) mail.letGo();
    await database.drop();
  });

  let address = 0;
  const post = async (path: string, body: unknown) => {
    const response = await auth.handler(
      new Request(`${config.appUrl}/api/auth${path}`, {
        method: 'POST',
        // Each from its own address: the per-address rate limits are not what is tested.
        headers: {
          'content-type': 'application/json',
          origin: config.appUrl,
          [CLIENT_IP_HEADER]: `10.9.8.${++address}`,
        },
        body: JSON.stringify(body),
      }),
    );
    return { status: response.status, body: await response.json() };
  };

  it('spends on saying an email is taken the password hash a new account spends', async () => {
    const password = 'correct horse 42';
    const signUp = (email: string) => post('/sign-up/email', { email, password, name: 'Someone' });
    const taken = `taken.${Date.now()}@example.com`;
    expect((await signUp(taken)).status).toBe(200);
    const hashes = vi.spyOn((await auth.$context).password, 'hash');
    try {
      expect((await signUp(`fresh.${Date.now()}@example.com`)).status).toBe(200);
      expect(hashes.mock.calls).toEqual([[password]]);
      hashes.mockClear();
      expect((await signUp(taken.toUpperCase())).status).toBe(422);
      expect(hashes.mock.calls).toEqual([[password]]);
    } finally {
      hashes.mockRestore();
    }
  });

  it('answers a real and an unknown address alike, without waiting for the mail', async () => {
    const askReset = (email: string) =>
      post('/request-password-reset', { email, redirectTo: `${config.appUrl}/reset-password` });
    const real = `real.${Date.now()}@example.com`;
    await auth.api.signUpEmail({ body: { email: real, password: 'correct horse 42', name: 'Real' } });

    // Answered while the mail server still holds the mail (a reset that waited for it would never answer).
    const known = await askReset(real);
    const unknown = await askReset(`nobody.${Date.now()}@example.com`);
    expect(known.status).toBe(200);
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    const mail = await eventually(async () => handedOver.find(({ message }) => message.to === real));
    expect(sent).not.toContain(mail.message);
    expect(mail.message.subject).toMatch(/reset/i);
    mail.letGo();
    expect(sent).toContain(mail.message);
  });
});
