// Verifies a Replicate webhook (Standard Webhooks scheme): HMAC-SHA256 over `${id}.${timestamp}.${body}`
// keyed with the base64 part of the `whsec_...` secret. The client's own validateWebhook neither checks
// the timestamp nor compares in constant time, hence this.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Older or newer than this and the delivery is refused (replay window). */
export const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

export function verifyReplicateWebhook(params: {
  id: string;
  timestamp: string;
  /** The `webhook-signature` header: space-separated `v1,<base64>` entries. */
  signatureHeader: string;
  /** The request body exactly as received (never re-serialized JSON). */
  rawBody: string | Buffer;
  /** `whsec_<base64>` from GET /v1/webhooks/default/secret. */
  secret: string;
  nowSeconds?: number;
}): boolean {
  const { id, timestamp, signatureHeader, rawBody, secret } = params;
  if (!id || !signatureHeader || !secret.startsWith('whsec_')) return false;
  if (!/^\d+$/.test(timestamp)) return false;
  const now = params.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return false;

  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  if (key.length === 0) return false;
  const expected = createHmac('sha256', key)
    .update(`${id}.${timestamp}.`)
    .update(typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody)
    .digest();

  let valid = false;
  for (const entry of signatureHeader.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    // timingSafeEqual throws on unequal lengths; a wrong length is simply not a match. No early exit,
    // so the time taken does not depend on which entry matched.
    if (given.length === expected.length && timingSafeEqual(given, expected)) valid = true;
  }
  return valid;
}
