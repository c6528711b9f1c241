// What clients read over a real socket (issue 52), from the server as `npm start` listens
// (http-server.ts): a refused body's 413 read by Node's fetch instead of "fetch failed", a phone's
// JPEG through a batch as multipart, a URL too long answered 431 in JSON, every answer of Node's own
// as JSON, and a refused key's 401 whole, so the keep-alive connection carries the next request.
import http from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_MESSAGES } from '../../src/contract/api-keys';
import type { Batch } from '../../src/contract/batches';
import { INPUT_MESSAGES, TOOL_BODY_MAX_BYTES } from '../../src/contract/input-limits';
import { HTTP_ERROR_MESSAGES, listen } from '../../src/server/http-server';
import { API_BODY_LIMIT, BODY_TOO_LARGE_MESSAGE } from '../../src/server/security/body-limit';
import { phoneJpeg } from '../support/phone-photos';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { instantProvider, routerWith, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
let server: Server;
let url: string;
beforeAll(async () => {
  backend = await createTestBackend({ inference: routerWith(instantProvider()) });
  server = await listen(backend.app.fetch, { port: 0, hostname: '127.0.0.1' });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await backend.stop();
});

/** A JSON body of `bytes` bytes (a data URL of filler: the limit refuses it before anyone looks). */
const jsonOfSize = (bytes: number) => {
  const head = '{"image":"data:image/png;base64,';
  return `${head}${'A'.repeat(bytes - head.length - 2)}"}`;
};

/** Sends `raw` on a new connection and reads everything the server answers until it closes. */
function rawExchange(raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(Number(new URL(url).port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
    socket.write(raw);
  });
}

/** An HTTP answer as text: its status, its headers (lower case) and its body. */
function parseAnswer(text: string) {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

describe('a body over its limit', () => {
  it('is answered 413 in JSON that Node’s fetch reads, on a tool call and on any other route', async () => {
    const toolCall = await fetch(`${url}/api/remove-background`, {
      method: 'POST',
      headers: { origin: backend.config.appUrl, 'content-type': 'application/json' },
      body: jsonOfSize(TOOL_BODY_MAX_BYTES + 1024 * 1024),
    });
    expect(toolCall.status).toBe(413);
    expect(toolCall.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await toolCall.json()).toEqual({ success: false, error: INPUT_MESSAGES.requestTooLarge });
    // Read to its end before the answer: the connection is not closed under the upload.
    expect(toolCall.headers.get('connection')).not.toBe('close');

    const signIn = await fetch(`${url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: backend.config.appUrl, 'content-type': 'application/json' },
      body: jsonOfSize(2 * API_BODY_LIMIT),
    });
    expect(signIn.status).toBe(413);
    expect(await signIn.json()).toEqual({ error: BODY_TOO_LARGE_MESSAGE });
    expect(signIn.headers.get('connection')).not.toBe('close');
  });

  it('is answered 413 in JSON when it comes chunked, with no Content-Length', async () => {
    const filler = new TextEncoder().encode('A'.repeat(256 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > 2 * API_BODY_LIMIT) return controller.close();
        sent += filler.length;
        controller.enqueue(filler);
      },
    });
    const answer = await fetch(`${url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { origin: backend.config.appUrl, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);
    expect(answer.status).toBe(413);
    expect(await answer.json()).toEqual({ error: BODY_TOO_LARGE_MESSAGE });
    expect(answer.headers.get('connection')).not.toBe('close');
  });

  it('leaves the keep-alive connection fit for the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const refused = await request(agent, 'POST', '/api/auth/sign-in/email', jsonOfSize(2 * API_BODY_LIMIT));
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toEqual({ error: BODY_TOO_LARGE_MESSAGE });
      const next = await request(agent, 'GET', '/api/tools');
      expect(next.status).toBe(200);
      expect(next.reusedSocket).toBe(true);
      expect(JSON.parse(next.body)).toHaveProperty('tools');
    } finally {
      agent.destroy();
    }
  });
});

/** One request through `agent` (a keep-alive one: the second request reuses the first one's socket). */
function request(agent: http.Agent, method: string, path: string, body?: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string; reusedSocket: boolean }>(
    (resolve, reject) => {
      const outgoing = http.request(
        `${url}${path}`,
        {
          method,
          agent,
          headers: {
            origin: backend.config.appUrl,
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () =>
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              body: Buffer.concat(chunks).toString(),
              reusedSocket: outgoing.reusedSocket,
            }),
          );
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    },
  );
}

describe('a batch image', () => {
  it('takes a phone’s JPEG of several MB sent as multipart (202)', async () => {
    const jpeg = await phoneJpeg({ width: 2400, height: 1800 });
    expect(jpeg.length).toBeGreaterThan(1.7 * 1024 * 1024);
    const { client } = await verifiedUser(backend, 20);
    const batch = await client.post<Batch>('/api/batches', { tool: 'background-remover', size: 1 });
    const form = new FormData();
    form.set('image', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'IMG_4102.jpg');
    form.set('item', '0');
    form.set('name', 'IMG_4102.jpg');
    const answer = await fetch(`${url}/api/batches/${batch.body.id}/images`, {
      method: 'POST',
      headers: { origin: backend.config.appUrl, cookie: client.cookieHeader(), 'x-forwarded-for': client.ip },
      body: form,
    });
    expect(answer.status).toBe(202);
    expect(await answer.json()).toMatchObject({ item: 0, charged: batch.body.price });
  });
});

describe('what Node answers before the app', () => {
  it('answers a 30 KB query string 431 in JSON', async () => {
    const answer = await fetch(`${url}/api/tools?q=${'a'.repeat(30 * 1024)}`);
    expect(answer.status).toBe(431);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.get('connection')).toBe('close');
    expect(await answer.json()).toEqual({ error: HTTP_ERROR_MESSAGES.headersTooLarge });
  });

  it('answers a request that is not HTTP, and one with a broken Host, 400 in JSON', async () => {
    const garbage = parseAnswer(await rawExchange('HELLO THERE\r\n\r\n'));
    expect(garbage.status).toBe(400);
    expect(garbage.headers['content-type']).toBe('application/json');
    expect(garbage.headers.connection).toBe('close');
    expect(JSON.parse(garbage.body)).toEqual({ error: HTTP_ERROR_MESSAGES.malformed });

    const badHost = parseAnswer(await rawExchange('GET /api/tools HTTP/1.1\r\nHost: exa mple\r\n\r\n'));
    expect(badHost.status).toBe(400);
    expect(badHost.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(badHost.body)).toEqual({ error: HTTP_ERROR_MESSAGES.badUrl });
  });
});

describe('a refused API key', () => {
  it('gets a 401 whose Content-Length is its body’s, and the connection carries the next request', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const unknownKey = `pp_${'A'.repeat(43)}`;
      for (const path of ['/api/profile', '/api/remove-background']) {
        const refused = await request(agent, path === '/api/profile' ? 'GET' : 'POST', path, undefined, {
          authorization: `Bearer ${unknownKey}`,
        });
        expect(refused.status, path).toBe(401);
        expect(Number(refused.headers['content-length']), path).toBe(Buffer.byteLength(refused.body));
        expect(JSON.parse(refused.body).error, path).toBe(API_KEY_MESSAGES.invalidKey);
        const next = await request(agent, 'GET', '/api/tools');
        expect(next.status, path).toBe(200);
        expect(next.reusedSocket, path).toBe(true);
        expect(JSON.parse(next.body), path).toHaveProperty('tools');
      }
    } finally {
      agent.destroy();
    }
  });
});
