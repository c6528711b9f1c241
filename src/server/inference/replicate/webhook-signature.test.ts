import { createHmac, randomBytes } from 'node:crypto';
import { validateWebhook } from 'replicate';
import { describe, expect, it } from 'vitest';
import { verifyReplicateWebhook } from './webhook-signature';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const id = 'msg_2m3sLhZUTPxhb2hRzcgcLbkHAhb';
const now = 1_750_000_000;
const timestamp = String(now);
const rawBody = JSON.stringify({ id: 'ufawqhfynnddngldkgtslldrkq', status: 'succeeded', output: ['https://x'] });

function sign(body: string, key = secret, ts = timestamp) {
  const hmac = createHmac('sha256', Buffer.from(key.slice('whsec_'.length), 'base64'));
  return `v1,${hmac.update(`${id}.${ts}.${body}`).digest('base64')}`;
}

const verify = (overrides: Partial<Parameters<typeof verifyReplicateWebhook>[0]> = {}) =>
  verifyReplicateWebhook({
    id,
    timestamp,
    signatureHeader: sign(rawBody),
    rawBody,
    secret,
    nowSeconds: now,
    ...overrides,
  });

describe('verifyReplicateWebhook', () => {
  it('accepts a valid signature, as the official client computes it', async () => {
    expect(verify()).toBe(true);
    expect(verify({ rawBody: Buffer.from(rawBody) })).toBe(true);
    expect(await validateWebhook({ id, timestamp, signature: sign(rawBody), body: rawBody, secret })).toBe(true);
  });

  it('rejects a tampered body', () => {
    expect(verify({ rawBody: rawBody.replace('succeeded', 'failed') })).toBe(false);
  });

  it('rejects a signature made with another secret', () => {
    const other = `whsec_${randomBytes(24).toString('base64')}`;
    expect(verify({ signatureHeader: sign(rawBody, other) })).toBe(false);
    expect(verify({ secret: other })).toBe(false);
  });

  it('rejects timestamps more than five minutes old or ahead', () => {
    const signedAt = (ts: number) => ({ timestamp: String(ts), signatureHeader: sign(rawBody, secret, String(ts)) });
    expect(verify(signedAt(now - 300))).toBe(true);
    expect(verify(signedAt(now - 301))).toBe(false);
    expect(verify(signedAt(now + 300))).toBe(true);
    expect(verify(signedAt(now + 301))).toBe(false);
  });

  it('accepts a header with several signatures when one matches', () => {
    const stale = sign(rawBody, `whsec_${randomBytes(24).toString('base64')}`);
    expect(verify({ signatureHeader: `${stale} ${sign(rawBody)}` })).toBe(true);
    expect(verify({ signatureHeader: `${sign(rawBody)} ${stale}` })).toBe(true);
    expect(verify({ signatureHeader: `${stale} v1,AAAA` })).toBe(false);
  });

  it('rejects malformed input instead of throwing', () => {
    const bare = sign(rawBody).slice('v1,'.length);
    expect(verify({ signatureHeader: bare })).toBe(false);
    expect(verify({ signatureHeader: `v2,${bare}` })).toBe(false);
    expect(verify({ signatureHeader: '' })).toBe(false);
    expect(verify({ timestamp: 'soon' })).toBe(false);
    expect(verify({ secret: secret.slice('whsec_'.length) })).toBe(false);
    expect(verify({ id: '' })).toBe(false);
  });
});
