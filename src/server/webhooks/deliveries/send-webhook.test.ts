// One try of a delivery against a receiver on this machine: signed so that the standardwebhooks
// package verifies it; in production a name that resolves to a local address is refused at the
// delivery, nothing sent.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newWebhookSecret } from '../signing-secrets';
import { checkedLookup, sendWebhook } from './send-webhook';

type Received = { headers: http.IncomingHttpHeaders; body: string };
let received: Received[] = [];
let answer = 200;
let delayMs = 0;
let server: http.Server;
let port: number;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      setTimeout(() => response.writeHead(answer).end('ok'), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  received = [];
  answer = 200;
  delayMs = 0;
});

const secret = newWebhookSecret();
const message = { id: 'job_1_succeeded', body: JSON.stringify({ type: 'job.succeeded', n: 1 }), secret };

describe('a webhook try', () => {
  it('POSTs the body signed as Standard Webhooks specifies; a 2xx delivers it', async () => {
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const outcome = await sendWebhook(`http://localhost:${port}/hook`, message, { production: false });
    expect(outcome).toEqual({ delivered: true, status: 200 });
    const [got] = received;
    expect(got?.body).toBe(message.body);
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['webhook-id']).toBe('job_1_succeeded');
    expect(got?.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const headers = got?.headers as Record<string, string>;
    expect(new Webhook(secret).verify(got?.body ?? '', headers)).toEqual({ type: 'job.succeeded', n: 1 });
    expect(() => new Webhook(newWebhookSecret()).verify(got?.body ?? '', headers)).toThrow();
  });

  it('reports another status, a timeout and an unreachable host as a failed try', async () => {
    answer = 500;
    expect(await sendWebhook(`http://127.0.0.1:${port}/`, message, { production: false })).toEqual({
      delivered: false,
      status: 500,
      error: 'The receiver answered HTTP 500.',
    });
    answer = 200;
    delayMs = 1000;
    expect(await sendWebhook(`http://127.0.0.1:${port}/`, message, { production: false, timeoutMs: 200 })).toEqual({
      delivered: false,
      error: 'No answer within 0.2 s.',
    });
    const closed = await sendWebhook('http://127.0.0.1:1/', message, { production: false });
    expect(closed).toMatchObject({ delivered: false, error: expect.stringMatching(/Could not reach the receiver/) });
  });

  it('in production, refuses a name that resolves to a local address, and an address literal, sending nothing', async () => {
    for (const url of [`https://localhost:${port}/hook`, `http://localhost:${port}/hook`]) {
      expect(await sendWebhook(url, message, { production: true })).toEqual({
        delivered: false,
        error: expect.stringMatching(
          /^Not sent: localhost resolves to (127\.0\.0\.1|::1), a local or private address\.$/,
        ),
      });
    }
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '10.0.0.1', '169.254.169.254']) {
      const outcome = await sendWebhook(`https://${host}:${port}/hook`, message, { production: true });
      expect(outcome, host).toMatchObject({ delivered: false, error: expect.stringMatching(/^Not sent: /) });
    }
    expect(received).toEqual([]);
  });

  it('resolves every address of the name and answers them all, or the refusal', async () => {
    const lookup = (production: boolean, all: boolean) =>
      new Promise<{ error: Error | null; address: unknown }>((resolve) =>
        checkedLookup({ production })('localhost', { all }, (error, address) => resolve({ error, address })),
      );
    const open = await lookup(false, true);
    expect(open.error).toBeNull();
    expect(Array.isArray(open.address)).toBe(true);
    expect((await lookup(false, false)).address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect((await lookup(true, true)).error?.message).toMatch(/a local or private address/);
  });
});
