// Sign-up and password reset must not tell who has an account by their timing (issue 36): a reset
// answers a real and an unknown address alike without waiting for the mail server, and sign-up's
// "User already exists" (the spec's message) takes as long as a new account's answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Auth, createAuth } from '../../src/server/auth/auth';
import { CLIENT_IP_HEADER } from '../../src/server/auth/client-ip';
import { quietLogger } from '../../src/server/log';
import type { Mailer, MailMessage } from '../../src/server/mail/mailer';
import { createTestDatabase, eventually, type TestDatabase, testConfig } from '../support/test-backend';

/** A mail server that takes its time, as a real SMTP hand-over does (125-138 ms measured; longer here, so that a loaded machine cannot blur it). */
const MAIL_SERVER_MS = 2000;

describe('account enumeration by timing', () => {
  let database: TestDatabase;
  let auth: Auth;
  const sent: MailMessage[] = [];
  const config = testConfig();
  beforeAll(async () => {
    database = await createTestDatabase();
    const slowMailer: Mailer = {
      kind: 'smtp',
      async send(message) {
        await new Promise((resolve) => setTimeout(resolve, MAIL_SERVER_MS));
        sent.push(message);
      },
    };
    auth = createAuth({
      config,
      database,
      mailer: slowMailer,
      logger: quietLogger(),
      secret: 'a test secret of enough length for better-auth',
      onUserCreated: async () => {},
    });
  });
  afterAll(() => database.drop());

  let address = 0;
  const post = async (path: string, body: unknown) => {
    const started = performance.now();
    const response = await auth.handler(
      new Request(`${config.appUrl}/api/auth${path}`, {
        method: 'POST',
        // Each from its own address: the per-address rate limits are not what is measured.
        headers: {
          'content-type': 'application/json',
          origin: config.appUrl,
          [CLIENT_IP_HEADER]: `10.9.8.${++address}`,
        },
        body: JSON.stringify(body),
      }),
    );
    return { status: response.status, body: await response.json(), ms: performance.now() - started };
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

  it('takes as long to say an email is taken as to make a new account', async () => {
    const taken = `taken.${Date.now()}@example.com`;
    const signUp = (email: string) => post('/sign-up/email', { email, password: 'correct horse 42', name: 'Someone' });
    expect((await signUp(taken)).status).toBe(200);
    const fresh: number[] = [];
    const existing: number[] = [];
    for (let i = 0; i < 5; i++) {
      const made = await signUp(`fresh.${i}.${Date.now()}@example.com`);
      expect(made.status).toBe(200);
      fresh.push(made.ms);
      const refused = await signUp(taken.toUpperCase());
      expect(refused.status).toBe(422);
      existing.push(refused.ms);
    }
    // Before: 5-10 ms against a new account's 60-100 ms (its password hash).
    expect(median(existing)).toBeGreaterThan(median(fresh) * 0.5);
  });

  const askReset = async (email: string) => {
    const started = performance.now();
    const response = await auth.handler(
      new Request(`${config.appUrl}/api/auth/request-password-reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: config.appUrl, [CLIENT_IP_HEADER]: '10.9.9.9' },
        body: JSON.stringify({ email, redirectTo: `${config.appUrl}/reset-password` }),
      }),
    );
    return { status: response.status, body: await response.json(), ms: performance.now() - started };
  };

  it('answers a real and an unknown address alike, without waiting for the mail', async () => {
    const real = `real.${Date.now()}@example.com`;
    await auth.api.signUpEmail({ body: { email: real, password: 'correct horse 42', name: 'Real' } });
    await askReset(`warm.${Date.now()}@example.com`); // first-call costs out of the measure

    const known = await askReset(real);
    const unknown = await askReset(`nobody.${Date.now()}@example.com`);
    expect(known.status).toBe(200);
    expect([unknown.status, unknown.body]).toEqual([known.status, known.body]);
    expect(known.ms).toBeLessThan(MAIL_SERVER_MS / 2);

    const mail = await eventually(async () => sent.find((m) => m.to === real));
    expect(mail.subject).toMatch(/reset/i);
  });
});
