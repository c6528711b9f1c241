// One try of a webhook delivery: the event POSTed to the job's URL, signed as Standard Webhooks
// specifies (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256> of
// id.timestamp.body, with the account's whsec_ secret through the standardwebhooks package), within
// 10 s. In production the host's addresses are resolved here and the connection goes only to them,
// and only if none is loopback, private, link-local or unspecified (contract/webhooks.ts): a name
// that resolves elsewhere at the call (or later, DNS rebinding) is refused at the delivery.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Webhook } from 'standardwebhooks';
import { isNonPublicAddress } from '../../../contract/webhooks';
import type { TryOutcome } from './delivery-repository';

/** How long a try may take, connection to answer. */
export const WEBHOOK_TRY_TIMEOUT_MS = 10_000;

export type WebhookMessage = { id: string; body: string; secret: string };

/** The headers of a signed delivery sent at `at`. */
export function signedHeaders(message: WebhookMessage, at: Date): Record<string, string> {
  const signature = new Webhook(message.secret).sign(message.id, at, message.body);
  return {
    'content-type': 'application/json',
    'user-agent': 'PicturePalette-Webhooks/1',
    'webhook-id': message.id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

class RefusedAddressError extends Error {
  override name = 'RefusedAddressError';
}

const refusedAddress = (host: string, address: string) =>
  new RefusedAddressError(`Not sent: ${host} resolves to ${address}, a local or private address.`);

/**
 * A lookup for the request's connection: every address the name resolves to, refused (in
 * production) when any is not public, so the connection goes only to addresses checked here.
 */
export function checkedLookup({ production }: { production: boolean }): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = production ? addresses.find((a) => isNonPublicAddress(a.address)) : undefined;
      if (refused) return callback(refusedAddress(hostname, refused.address), '', 0);
      const first = addresses[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      if (options.all) return callback(null, addresses);
      callback(null, first.address, first.family);
    });
  };
}

/** POSTs the message to `url` once; a 2xx delivers it. Never throws: a failure is the outcome. */
export async function sendWebhook(
  url: string,
  message: WebhookMessage,
  options: { production: boolean; timeoutMs?: number },
): Promise<TryOutcome> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is connected to without a lookup: judged here.
  if (options.production && net.isIP(host) && isNonPublicAddress(host)) {
    return { delivered: false, error: refusedAddress(host, host).message };
  }
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TRY_TIMEOUT_MS;
  const client = target.protocol === 'https:' ? https : http;
  const body = Buffer.from(message.body);
  return new Promise<TryOutcome>((resolve) => {
    const request = client.request(
      target,
      {
        method: 'POST',
        headers: { ...signedHeaders(message, new Date()), 'content-length': String(body.length) },
        lookup: checkedLookup(options),
        signal: AbortSignal.timeout(timeoutMs),
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        // The answer's body is not read: only its status counts.
        response.resume();
        response.on('error', () => {});
        if (status >= 200 && status < 300) resolve({ delivered: true, status });
        else resolve({ delivered: false, status, error: `The receiver answered HTTP ${status}.` });
      },
    );
    request.on('error', (error) => {
      if (error instanceof RefusedAddressError) return resolve({ delivered: false, error: error.message });
      if (error.name === 'AbortError' || error.name === 'TimeoutError') {
        return resolve({ delivered: false, error: `No answer within ${timeoutMs / 1000} s.` });
      }
      const code = (error as NodeJS.ErrnoException).code;
      resolve({ delivered: false, error: `Could not reach the receiver (${code ?? error.message}).` });
    });
    request.end(body);
  });
}
