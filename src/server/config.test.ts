import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseRole } from './config';

describe('configuration', () => {
  it('starts with embedded defaults and no variables at all', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.trustedOrigins).toEqual(['http://localhost:3000', 'http://127.0.0.1:3000']);
    expect(loadConfig({ APP_URL: 'https://app.example.com/' }).trustedOrigins).toEqual(['https://app.example.com']);
    expect(config.database).toEqual({ kind: 'pglite', dir: path.resolve('./data/pglite') });
    expect(config.role).toEqual({ web: true, worker: true });
    expect(config.providers).toEqual({ inference: 'local', payments: 'local', mail: 'outbox', storage: 'fs' });
    // Unset: the webhook delivery's retry policy (db/queue/retry-policies.ts) gives the base.
    expect(config.webhooks).toEqual({ retryBaseSeconds: undefined });
    expect(loadConfig({ WEBHOOK_RETRY_BASE_SECONDS: '0.2' }).webhooks.retryBaseSeconds).toBe(0.2);
  });

  it.each([
    ['PORT', 'abc', 'PORT: must be a number (got "abc")'],
    ['PORT', '70000', 'PORT: must be between 1 and 65535 (got "70000")'],
    ['PORT', '3.5', 'PORT: must be a whole number (got "3.5")'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL: must start with postgres:// or postgresql:// (got "mysql://x")'],
    ['APP_URL', 'not a url', 'APP_URL: must be a URL such as https://app.example.com (got "not a url")'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL:'],
    ['WEBHOOK_RETRY_BASE_SECONDS', 'soon', 'WEBHOOK_RETRY_BASE_SECONDS: must be a number (got "soon")'],
    ['WEBHOOK_RETRY_BASE_SECONDS', '0', 'WEBHOOK_RETRY_BASE_SECONDS: must be at least 0.01 (got "0")'],
    ['WEBHOOK_RETRY_BASE_SECONDS', '7200', 'WEBHOOK_RETRY_BASE_SECONDS: must be at most 3600 (got "7200")'],
  ])('rejects %s=%s with a message that names it', (key, value, message) => {
    const attempt = () => loadConfig({ [key]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(message);
  });

  const SECRET = 'x'.repeat(32);

  it('uses PostgreSQL when DATABASE_URL is set, and an empty value means unset', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db', BETTER_AUTH_SECRET: SECRET }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/db',
    });
    expect(loadConfig({ DATABASE_URL: '' }).database.kind).toBe('pglite');
  });

  it('splits web and worker only on a shared PostgreSQL', () => {
    expect(parseRole(['--web'])).toEqual({ web: true, worker: false });
    expect(parseRole(['--worker'])).toEqual({ web: false, worker: true });
    expect(parseRole([])).toEqual({ web: true, worker: true });
    expect(() => loadConfig({}, ['--worker'])).toThrow('set DATABASE_URL');
    expect(loadConfig({ DATABASE_URL: 'postgres://h/db', BETTER_AUTH_SECRET: SECRET }, ['--worker']).role).toEqual({
      web: false,
      worker: true,
    });
  });

  it('requires the auth secret in production and on PostgreSQL, and a long one', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('BETTER_AUTH_SECRET: required in production');
    expect(() => loadConfig({ DATABASE_URL: 'postgres://h/db' })).toThrow('BETTER_AUTH_SECRET: required');
    expect(() => loadConfig({ BETTER_AUTH_SECRET: 'short' })).toThrow(
      'BETTER_AUTH_SECRET: must be at least 32 characters',
    );
    expect(loadConfig({ NODE_ENV: 'production', BETTER_AUTH_SECRET: SECRET, ...STRIPE }).auth.secret).toBe(SECRET);
    expect(loadConfig({}).auth.secret).toBeUndefined();
  });

  it('enables Google sign-in only with both its id and secret', () => {
    expect(loadConfig({}).auth.google).toBeNull();
    expect(() => loadConfig({ GOOGLE_CLIENT_ID: 'id' })).toThrow('set both');
    expect(loadConfig({ GOOGLE_CLIENT_ID: 'id', GOOGLE_CLIENT_SECRET: 's' }).auth.google).toEqual({
      clientId: 'id',
      clientSecret: 's',
      discoveryUrl: 'https://accounts.google.com/.well-known/openid-configuration',
    });
  });

  it('picks the local background-removal network: medium by default, small on request, nothing else', () => {
    expect(loadConfig({}).local).toEqual({ backgroundModel: 'medium' });
    expect(loadConfig({ LOCAL_BACKGROUND_MODEL: 'small' }).local).toEqual({ backgroundModel: 'small' });
    expect(() => loadConfig({ LOCAL_BACKGROUND_MODEL: 'large' })).toThrow(/LOCAL_BACKGROUND_MODEL: .*"large"/);
  });

  it('runs 2 tool jobs per worker process unless WORKER_CONCURRENCY says 1 to 32', () => {
    expect(loadConfig({}).workerConcurrency).toBe(2);
    expect(loadConfig({ WORKER_CONCURRENCY: '8' }).workerConcurrency).toBe(8);
    for (const bad of ['0', '33', '2.5', 'many']) {
      expect(() => loadConfig({ WORKER_CONCURRENCY: bad }), bad).toThrow(/WORKER_CONCURRENCY: /);
    }
  });

  it('lets an account make 60 tool calls a minute unless TOOL_CALLS_PER_MINUTE says otherwise', () => {
    expect(loadConfig({}).toolCallsPerMinute).toBe(60);
    expect(loadConfig({ TOOL_CALLS_PER_MINUTE: '10' }).toolCallsPerMinute).toBe(10);
    for (const bad of ['0', '-1', '1.5', 'lots']) {
      expect(() => loadConfig({ TOOL_CALLS_PER_MINUTE: bad }), bad).toThrow(/TOOL_CALLS_PER_MINUTE: /);
    }
  });

  it('lets a user have 10 tool jobs queued or running unless MAX_ACTIVE_JOBS_PER_USER says 1 to 1000', () => {
    expect(loadConfig({}).maxActiveJobsPerUser).toBe(10);
    expect(loadConfig({ MAX_ACTIVE_JOBS_PER_USER: '3' }).maxActiveJobsPerUser).toBe(3);
    for (const bad of ['0', '1001', '2.5', 'many']) {
      expect(() => loadConfig({ MAX_ACTIVE_JOBS_PER_USER: bad }), bad).toThrow(/MAX_ACTIVE_JOBS_PER_USER: /);
    }
  });

  it('counts a worker as gone after 30 s without a heartbeat unless WORKER_LEASE_SECONDS says 3 to 600', () => {
    expect(loadConfig({}).workerLeaseSeconds).toBe(30);
    expect(loadConfig({ WORKER_LEASE_SECONDS: '10' }).workerLeaseSeconds).toBe(10);
    for (const bad of ['2', '601', '1.5', 'soon']) {
      expect(() => loadConfig({ WORKER_LEASE_SECONDS: bad }), bad).toThrow(/WORKER_LEASE_SECONDS: /);
    }
  });

  it('waits 10 s for the jobs of a stopping worker unless WORKER_STOP_WAIT_SECONDS says 0.1 to 600', () => {
    expect(loadConfig({}).workerStopWaitSeconds).toBe(10);
    expect(loadConfig({ WORKER_STOP_WAIT_SECONDS: '2' }).workerStopWaitSeconds).toBe(2);
    for (const bad of ['0', '601', 'soon']) {
      expect(() => loadConfig({ WORKER_STOP_WAIT_SECONDS: bad }), bad).toThrow(/WORKER_STOP_WAIT_SECONDS: /);
    }
  });

  it('retries a failed tool run after the delay of its retry policy unless TOOL_RETRY_DELAY_SECONDS says 0.05 to 3600', () => {
    expect(loadConfig({}).toolRetryDelaySeconds).toBeUndefined();
    expect(loadConfig({ TOOL_RETRY_DELAY_SECONDS: '0.2' }).toolRetryDelaySeconds).toBe(0.2);
    for (const bad of ['0', '-1', '3601', 'soon']) {
      expect(() => loadConfig({ TOOL_RETRY_DELAY_SECONDS: bad }), bad).toThrow(/TOOL_RETRY_DELAY_SECONDS: /);
    }
  });

  it('rejects an SMTP_URL that is not smtp', () => {
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow('SMTP_URL: must start with smtp:// or smtps://');
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525' }).mail.smtpUrl).toBe('smtp://127.0.0.1:2525');
  });

  it('turns on Replicate webhook mode with a whsec_ secret, https in production, never echoing the secret', () => {
    const token = { REPLICATE_API_TOKEN: 'r8_x' };
    expect(loadConfig(token).replicate).toEqual({ apiToken: 'r8_x', webhook: null });
    expect(loadConfig(token).webhookGraceSeconds).toBe(600);
    const config = loadConfig({ ...token, APP_URL: 'https://app.example.com', REPLICATE_WEBHOOK_SECRET: 'whsec_abc' });
    expect(config.replicate?.webhook).toEqual({
      url: 'https://app.example.com/api/webhooks/replicate',
      secret: 'whsec_abc',
    });
    expect(() => loadConfig({ ...token, REPLICATE_WEBHOOK_SECRET: 'not-a-secret-value' })).toThrow(
      /^(?!.*not-a-secret-value).*REPLICATE_WEBHOOK_SECRET: must start with whsec_/s,
    );
    expect(() => loadConfig({ REPLICATE_WEBHOOK_SECRET: 'whsec_abc' })).toThrow('needs REPLICATE_API_TOKEN');
    const production = {
      ...token,
      NODE_ENV: 'production',
      BETTER_AUTH_SECRET: SECRET,
      ...STRIPE,
      REPLICATE_WEBHOOK_SECRET: 'whsec_a',
    };
    expect(() => loadConfig({ ...production, APP_URL: 'http://app.example.com' })).toThrow('over https');
    expect(loadConfig({ ...production, APP_URL: 'https://app.example.com' }).replicate?.webhook).not.toBeNull();
    expect(loadConfig({ ...token, REPLICATE_WEBHOOK_GRACE_SECONDS: '120' }).webhookGraceSeconds).toBe(120);
  });

  const STRIPE = {
    STRIPE_SECRET_KEY: 'sk_test_abc123',
    STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
    STRIPE_PRICE_500: 'price_a',
    STRIPE_PRICE_1100: 'price_b',
    STRIPE_PRICE_2400: 'price_c',
  };

  it('selects each external provider from its variable', () => {
    const config = loadConfig({ REPLICATE_API_TOKEN: 'r8_x', ...STRIPE, SMTP_URL: 'smtp://h:25' });
    expect(config.providers).toMatchObject({ inference: 'replicate', payments: 'stripe', mail: 'smtp' });
  });

  it('turns on S3 storage only with bucket and both keys, never echoing the secret', () => {
    expect(loadConfig({}).s3).toBeNull();
    const s3 = { S3_BUCKET: 'files', S3_ACCESS_KEY_ID: 'AKIA1', S3_SECRET_ACCESS_KEY: 's3-secret-value' };
    expect(loadConfig({ ...s3, S3_ENDPOINT: 'http://127.0.0.1:9000' }).s3).toEqual({
      bucket: 'files',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      accessKeyId: 'AKIA1',
      secretAccessKey: 's3-secret-value',
    });
    expect(loadConfig(s3).providers.storage).toBe('s3');
    expect(() => loadConfig({ S3_BUCKET: 'files' })).toThrow(/set all three/);
    expect(() => loadConfig({ ...s3, S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT/);
  });

  it('reports the inference provider INFERENCE_PROVIDER chose, also over a Replicate token', () => {
    expect(loadConfig({ REPLICATE_API_TOKEN: 'r8_x', INFERENCE_PROVIDER: 'demo' }).providers.inference).toBe('demo');
    expect(loadConfig({ INFERENCE_PROVIDER: 'demo' }).inference.default).toBe('demo');
  });

  it('turns on Stripe only with its webhook secret and three price ids, never echoing the secrets', () => {
    expect(loadConfig(STRIPE).stripe).toEqual({
      secretKey: 'sk_test_abc123',
      webhookSecret: 'whsec_abc123',
      prices: { 500: 'price_a', 1100: 'price_b', 2400: 'price_c' },
      api: null,
    });
    expect(loadConfig({ ...STRIPE, STRIPE_API_BASE: 'http://127.0.0.1:12111' }).stripe?.api).toEqual({
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
    expect(() => loadConfig({ ...STRIPE, STRIPE_WEBHOOK_SECRET: '', STRIPE_PRICE_2400: '' })).toThrow(
      'STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY',
    );
    expect(() => loadConfig({ ...STRIPE, STRIPE_PRICE_2400: '' })).toThrow('STRIPE_PRICE_2400: required');
    expect(() => loadConfig({ ...STRIPE, STRIPE_PRICE_2400: 'price_a' })).toThrow('three different prices');
    expect(() => loadConfig({ ...STRIPE, STRIPE_PRICE_500: 'prod_a' })).toThrow('STRIPE_PRICE_500: must be a price id');
    expect(() => loadConfig({ STRIPE_WEBHOOK_SECRET: 'whsec_abc123' })).toThrow('set STRIPE_SECRET_KEY too');
    for (const bad of [
      { ...STRIPE, STRIPE_SECRET_KEY: 'pk_test_published' },
      { ...STRIPE, STRIPE_WEBHOOK_SECRET: 'not-a-whsec-value' },
    ]) {
      const error = (() => {
        try {
          loadConfig(bad);
        } catch (e) {
          return e as Error;
        }
      })();
      expect(error).toBeInstanceOf(ConfigError);
      expect(error?.message).not.toMatch(/pk_test_published|not-a-whsec-value/);
    }
  });

  it('refuses to start production without Stripe, naming the variables, so no checkout credits tokens for free', () => {
    const production = { NODE_ENV: 'production', BETTER_AUTH_SECRET: SECRET };
    const error = (() => {
      try {
        loadConfig(production);
      } catch (e) {
        return e as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigError);
    for (const name of [
      'STRIPE_SECRET_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'STRIPE_PRICE_500',
      'STRIPE_PRICE_1100',
      'STRIPE_PRICE_2400',
    ]) {
      expect(error?.message).toContain(name);
    }
    expect(loadConfig({ ...production, ...STRIPE }).providers.payments).toBe('stripe');
    expect(loadConfig({ ...production, ...STRIPE }).unsafeLocalCheckout).toBe(false);
    // The staging escape hatch says what it is, and is only read in production.
    const staging = loadConfig({ ...production, UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION: 'true' });
    expect(staging.providers.payments).toBe('local');
    expect(staging.unsafeLocalCheckout).toBe(true);
    expect(loadConfig({ UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION: 'true' }).unsafeLocalCheckout).toBe(false);
    expect(() => loadConfig({ ...production, UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION: 'yes' })).toThrow(
      /UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION/,
    );
  });

  it('reads the operators of ADMIN_EMAILS without case or spaces, and names an entry that is no address', () => {
    expect(loadConfig({}).adminEmails).toEqual([]);
    expect(loadConfig({ ADMIN_EMAILS: ' Ops@Example.com,, support@example.com ' }).adminEmails).toEqual([
      'ops@example.com',
      'support@example.com',
    ]);
    expect(() => loadConfig({ ADMIN_EMAILS: 'ops@example.com, Support Team' })).toThrow(
      'ADMIN_EMAILS: "support team" is not an email address',
    );
  });
});
