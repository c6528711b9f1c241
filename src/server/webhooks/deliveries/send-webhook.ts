// One try of a webhook delivery: the event POSTed to the job's URL, signed as Standard Webhooks
// specifies (webhook-id, webhook-timestamp, webhook-signature: v1,<base64 HMAC-SHA256> of
// id.timestamp.body, with the account's whsec_ secret through the standardwebhooks package), within
// 10 s. In production the host's addresses are resolved here and the connection goes only to them,
// and only if every one is globally routable unicast (contract/webhooks.ts: IANA's special-purpose
// registries) and none is this server's own: a name that resolves elsewhere at the call (or later,
// DNS rebinding) is refused at the delivery. Whatever keeps a try from a receiver's HTTP answer
// (a refused address, a refused or timed-out connection, TLS or garbage instead of HTTP) shows its
// owner one sentence, so a delivery's error cannot tell an open port from a closed one; the detail
// goes to the log only.
import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import { Webhook } from 'standardwebhooks';
import { canonicalAddress, specialPurposeRangeOf } from '../../../contract/webhooks';
import type { TryOutcome } from './delivery-repository';

/** How long a try may take, connection to answer. */
export const WEBHOOK_TRY_TIMEOUT_MS = 10_000;
/**
 * How long the connection may take (the name's lookup and the TCP connect): a host that takes longer
 * is failed at once, not held for the whole try (issue 53: one account's receivers hold no slot long).
 */
export const WEBHOOK_CONNECT_TIMEOUT_MS = 3_000;

/** What a delivery's owner reads (webhook.lastError) after any try that got no HTTP answer. */
export const WEBHOOK_TRY_FAILED = 'The receiver did not answer with 2xx.';

/** A try's outcome; `detail` says what went wrong, for the log only (never shown to the owner). */
export type SentOutcome = TryOutcome & { detail?: string };

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

class ConnectTimeoutError extends Error {
  override name = 'ConnectTimeoutError';
}

/** Is `address` one of this machine's (any interface's, read now: they change)? */
function isOwnAddress(address: string): boolean {
  const wanted = canonicalAddress(address);
  return Object.values(os.networkInterfaces()).some((list) =>
    list?.some((own) => canonicalAddress(own.address) === wanted),
  );
}

/** Why production never sends to `address` (a special-purpose range, or this server), or null. */
export function addressRefusal(address: string): string | null {
  return specialPurposeRangeOf(address) ?? (isOwnAddress(address) ? "this server's own address" : null);
}

const refusedAddress = (host: string, address: string, why: string) =>
  new RefusedAddressError(`Not sent to ${address} (the address of ${host}): ${why}.`);

/**
 * A lookup for the request's connection: every address the name resolves to, refused (in
 * production) when any is not public, so the connection goes only to addresses checked here.
 */
export function checkedLookup({ production }: { production: boolean }): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      for (const { address } of production ? addresses : []) {
        const why = addressRefusal(address);
        if (why) return callback(refusedAddress(hostname, address, why), '', 0);
      }
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
  options: { production: boolean; timeoutMs?: number; connectTimeoutMs?: number },
): Promise<SentOutcome> {
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  // An IP literal is connected to without a lookup: judged here.
  const literalRefusal = options.production && net.isIP(host) ? addressRefusal(host) : null;
  if (literalRefusal) {
    return { delivered: false, error: WEBHOOK_TRY_FAILED, detail: refusedAddress(host, host, literalRefusal).message };
  }
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TRY_TIMEOUT_MS;
  const connectTimeoutMs = options.connectTimeoutMs ?? WEBHOOK_CONNECT_TIMEOUT_MS;
  const client = target.protocol === 'https:' ? https : http;
  const body = Buffer.from(message.body);
  return new Promise<SentOutcome>((resolve) => {
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
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      const timer = setTimeout(() => request.destroy(new ConnectTimeoutError()), connectTimeoutMs);
      const clear = () => clearTimeout(timer);
      socket.once('connect', clear);
      socket.once('close', clear);
    });
    request.on('error', (error) => {
      const failed = (detail: string) => resolve({ delivered: false, error: WEBHOOK_TRY_FAILED, detail });
      if (error instanceof RefusedAddressError) return failed(error.message);
      if (error instanceof ConnectTimeoutError) return failed(`Could not connect within ${connectTimeoutMs / 1000} s.`);
      if (error.name === 'AbortError' || error.name === 'TimeoutError') {
        return failed(`No answer within ${timeoutMs / 1000} s.`);
      }
      const code = (error as NodeJS.ErrnoException).code;
      failed(`Could not reach the receiver (${code ? `${code}: ` : ''}${error.message}).`);
    });
    request.end(body);
  });
}
