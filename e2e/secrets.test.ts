// Secrets never reach the logs: the real server at LOG_LEVEL=debug, with every secret configured
// and every external system failing (SMTP refuses, Stripe unreachable), through sign-up, a wrong
// password, a tool call, a purchase and a forged webhook. Nothing it prints contains a secret.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieHeaderFrom, freePort, type ServerProcess, startServerProcess } from './support/server';

const SECRETS = {
  BETTER_AUTH_SECRET: 'auth-secret-7f3a9c1e5b8d2f4a6c0e9b7d5f3a1c8e',
  STRIPE_SECRET_KEY: 'sk_test_secret7f3a9c1e5b8d2f4a6c0e',
  STRIPE_WEBHOOK_SECRET: 'whsec_secret7f3a9c1e5b8d2f4a6c0e',
  REPLICATE_API_TOKEN: 'r8_secret7f3a9c1e5b8d2f4a6c0e9b7d',
  GOOGLE_CLIENT_SECRET: 'google-secret-7f3a9c1e5b8d2f4a6c0e',
  SMTP_PASSWORD: 'smtp-secret-7f3a9c1e5b8d2f4a6c0e',
  S3_SECRET_ACCESS_KEY: 's3-secret-7f3a9c1e5b8d2f4a6c0e9b7d',
};

describe('secrets in the logs', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    const closed = await freePort(); // nothing listens here: every external call fails
    server = await startServerProcess({
      env: {
        LOG_LEVEL: 'debug',
        TRUST_PROXY_HOPS: '1',
        BETTER_AUTH_SECRET: SECRETS.BETTER_AUTH_SECRET,
        STRIPE_SECRET_KEY: SECRETS.STRIPE_SECRET_KEY,
        STRIPE_WEBHOOK_SECRET: SECRETS.STRIPE_WEBHOOK_SECRET,
        STRIPE_PRICE_500: 'price_a',
        STRIPE_PRICE_1100: 'price_b',
        STRIPE_PRICE_2400: 'price_c',
        STRIPE_API_BASE: `http://127.0.0.1:${closed}`,
        REPLICATE_API_TOKEN: SECRETS.REPLICATE_API_TOKEN,
        INFERENCE_PROVIDER: 'demo',
        GOOGLE_CLIENT_ID: 'google-client-id',
        GOOGLE_CLIENT_SECRET: SECRETS.GOOGLE_CLIENT_SECRET,
        GOOGLE_DISCOVERY_URL: `http://127.0.0.1:${closed}/.well-known/openid-configuration`,
        SMTP_URL: `smtp://mailer:${SECRETS.SMTP_PASSWORD}@127.0.0.1:${closed}`,
        S3_BUCKET: 'files',
        S3_ENDPOINT: `http://127.0.0.1:${closed}`,
        S3_ACCESS_KEY_ID: 'AKIA-TEST',
        S3_SECRET_ACCESS_KEY: SECRETS.S3_SECRET_ACCESS_KEY,
        NSFW_POLICY: 'allow',
      },
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('prints none of them, however the requests fail', async () => {
    const origin = server.url;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { origin, 'content-type': 'application/json', 'x-forwarded-for': '10.66.0.1', ...headers },
        body: JSON.stringify(body),
      });
    const email = `secrets.${Date.now()}@example.com`;
    const signUp = await post('/api/auth/sign-up/email', { email, password: 'a password 42', name: 'S' });
    expect(signUp.status).toBe(200);
    const cookie = cookieHeaderFrom(signUp);
    await post('/api/auth/sign-in/email', { email, password: 'wrong password' });
    await post('/api/auth/sign-in/social', { provider: 'google', callbackURL: '/text-to-pic' });
    await post('/api/generate-image', { prompt: 'a boat', numOutputs: 1 }, { cookie });
    await post('/api/create-checkout-session', { priceId: 'price_a' }, { cookie });
    await post('/api/profile/verification-email', {}, { cookie });
    await post('/api/webhooks/stripe', { id: 'evt_forged' }, { 'stripe-signature': 't=1,v1=forged' });
    // The failures are logged (so there is something to leak): the account-setup job's, in the
    // background (Stripe's customer), once it has run; the cap only catches a hang.
    const failures = [
      'verification mail could not be sent', // SMTP
      'account setup failed', // Stripe's customer
      'stripe webhook refused',
    ];
    await expect
      .poll(() => failures.filter((failure) => !server.output().includes(failure)), { timeout: 60_000 })
      .toEqual([]);

    const output = server.output();
    for (const [name, value] of Object.entries(SECRETS)) expect(output, name).not.toContain(value);
  }, 120_000);
});
