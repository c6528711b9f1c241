// One try of a delivery against a receiver on this machine: signed so that the standardwebhooks
// package verifies it; in production a name that resolves to a local address is refused at the
// delivery, nothing sent; every failure short of an HTTP answer reads the same to the job's owner.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { newWebhookSecret } from '../signing-secrets';
import { addressRefusal, checkedLookup, sendWebhook, WEBHOOK_TRY_FAILED } from './send-webhook';

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

/** A port on 127.0.0.1 that nothing listens on: taken, then let go. */
async function closedPort(): Promise<number> {
  const holder = net.createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  const { port: free } = holder.address() as AddressInfo;
  await new Promise<void>((resolve) => holder.close(() => resolve()));
  return free;
}

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
      error: WEBHOOK_TRY_FAILED,
      detail: 'No answer within 0.2 s.',
    });
    const closed = await sendWebhook(`http://127.0.0.1:${await closedPort()}/`, message, { production: false });
    expect(closed).toEqual({
      delivered: false,
      error: WEBHOOK_TRY_FAILED,
      detail: expect.stringMatching(/ECONNREFUSED/),
    });
  });

  it('tells the owner nothing that would tell an open port from a closed one: the detail is for the log', async () => {
    // Not a web server: an SSH banner, then the connection closed (what the client sent read and dropped).
    const banner = net.createServer((socket) => socket.resume().end('SSH-2.0-OpenSSH_9.6\r\n'));
    await new Promise<void>((resolve) => banner.listen(0, '127.0.0.1', resolve));
    try {
      const tries = {
        closed: `http://127.0.0.1:${await closedPort()}/hook`,
        // https to a port that speaks plain HTTP: the TLS handshake fails (EPROTO).
        plainHttp: `https://127.0.0.1:${port}/hook`,
        notHttp: `http://127.0.0.1:${(banner.address() as AddressInfo).port}/hook`,
      };
      const outcomes = Object.fromEntries(
        await Promise.all(
          Object.entries(tries).map(async ([kind, url]) => [
            kind,
            await sendWebhook(url, message, { production: false }),
          ]),
        ),
      );
      for (const outcome of Object.values(outcomes)) {
        expect(outcome).toEqual({ delivered: false, error: WEBHOOK_TRY_FAILED, detail: expect.any(String) });
      }
      expect(outcomes.closed.detail).toMatch(/ECONNREFUSED/);
      expect(outcomes.plainHttp.detail).toMatch(/EPROTO|SSL/);
      expect(outcomes.notHttp.detail).toMatch(/HPE_/);
      expect(received).toEqual([]);
    } finally {
      await new Promise<void>((resolve) => banner.close(() => resolve()));
    }
  });

  it('in production, refuses a name that resolves to a local address, and an address literal, sending nothing', async () => {
    for (const url of [`https://localhost:${port}/hook`, `http://localhost:${port}/hook`]) {
      expect(await sendWebhook(url, message, { production: true })).toEqual({
        delivered: false,
        error: WEBHOOK_TRY_FAILED,
        detail: expect.stringMatching(
          /^Not sent to (127\.0\.0\.1 \(the address of localhost\): 127\.0\.0\.0\/8 loopback|::1 \(the address of localhost\): ::1\/128 loopback)\.$/,
        ),
      });
    }
    // Each a literal: no lookup, judged before any connection (only loopback could answer here anyway).
    for (const host of [
      '127.0.0.1',
      '[::1]',
      '[::ffff:127.0.0.1]',
      '10.0.0.1',
      '169.254.169.254',
      '192.0.2.1',
      '198.18.0.1',
      '203.0.113.9',
      '[2001:db8::1]',
      '[64:ff9b::7f00:1]',
    ]) {
      const outcome = await sendWebhook(`https://${host}:${port}/hook`, message, { production: true });
      expect(outcome, host).toEqual({
        delivered: false,
        error: WEBHOOK_TRY_FAILED,
        detail: expect.stringMatching(/^Not sent to /),
      });
    }
    expect(received).toEqual([]);
  });

  describe("this server's own addresses", () => {
    // A public address on one of this machine's interfaces (made up: no test sends anywhere but 127.0.0.1).
    beforeEach(() => {
      vi.spyOn(os, 'networkInterfaces').mockReturnValue({
        eth0: [
          {
            address: '8.8.4.4',
            netmask: '255.255.255.0',
            family: 'IPv4',
            mac: '00:00:00:00:00:00',
            internal: false,
            cidr: '8.8.4.4/24',
          },
        ],
      });
    });
    afterEach(() => vi.restoreAllMocks());

    it('are refused however written, other public addresses not', () => {
      expect(addressRefusal('8.8.4.4')).toBe("this server's own address");
      expect(addressRefusal('::ffff:8.8.4.4')).toBe("this server's own address");
      expect(addressRefusal('8.8.8.8')).toBeNull();
      expect(addressRefusal('2606:4700:4700::1111')).toBeNull();
      expect(addressRefusal('198.18.0.1')).toBe('198.18.0.0/15 benchmarking');
    });
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
    expect((await lookup(true, true)).error?.message).toMatch(/^Not sent to .*loopback\.$/);
  });
});
