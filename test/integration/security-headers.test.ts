// Every response carries the security headers; pages that need another policy carry their own,
// exactly as narrow as they need; bodies are bounded before anything reads them.
import { createHash } from 'node:crypto';
import { type AddressInfo, connect } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TOKEN_PACKAGES } from '../../src/contract/packages';
import { securityHeaders } from '../../src/server/security/security-headers';
import { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { verifiedUser } from '../support/tool-fixtures';

describe('security headers', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  it('put every API answer under a policy that allows only our origin, and nobody may frame it', async () => {
    for (const path of ['/api/health', '/api/profile', '/api/no-such-route']) {
      const response = await backend.app.request(path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("default-src 'self'");
      expect(csp, path).toContain("script-src 'self'");
      expect(csp, path).toContain("frame-ancestors 'none'");
      expect(csp, path).toContain("object-src 'none'");
      expect(response.headers.get('x-frame-options'), path).toBe('DENY');
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(response.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      // Not over plain http in development and tests: HSTS would pin localhost to https.
      expect(response.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('send HSTS in production', async () => {
    const app = new Hono().use('*', securityHeaders({ production: true })).get('/', (c) => c.text('ok'));
    const response = await app.request('/');
    expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('let the test checkout page style itself by the hash of its one inline style, and nothing more', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const pack = TOKEN_PACKAGES[0];
    const session = await client.post<{ url: string }>('/api/create-checkout-session', {
      priceId: pack?.id,
      userId: id,
    });
    const page = await client.get<string>(session.body.url);
    expect(page.status).toBe(200);
    const style = /<style>([\s\S]*?)<\/style>/.exec(page.body)?.[1] ?? '';
    const hash = createHash('sha256').update(style).digest('base64');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain(`style-src 'sha256-${hash}'`);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("form-action 'self'");
  });

  it('keep the dev outbox sandboxed: no scripts on its pages, and a mail on its own in a sandbox', async () => {
    const client = new TestClient(backend.app, backend.config.appUrl);
    await client.signUp(`outbox.${Date.now()}@example.com`);
    // The verification mail is sent by the account-setup job, a moment after sign-up.
    const { list, id } = await vi.waitFor(
      async () => {
        const list = await client.get<string>('/dev/mail');
        const id = /href="\/dev\/mail\/([^"/]+)"/.exec(list.body)?.[1];
        if (!id) throw new Error('no mail yet');
        return { list, id };
      },
      { timeout: 10_000, interval: 200 },
    );
    expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(list.headers.get('content-security-policy')).not.toContain('script-src');
    const html = await client.get<string>(`/dev/mail/${id}/html`);
    expect(html.headers.get('content-security-policy')).toMatch(/^sandbox /);
  });
});

describe('request bodies', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  it('refuse a body over 1 MB on every route but the tools, before it is read', async () => {
    const client = new TestClient(backend.app, backend.config.appUrl);
    for (const path of ['/api/auth/sign-in/email', '/api/create-checkout-session', '/api/webhooks/stripe']) {
      const response = await client.request<{ error?: string }>('POST', path, {
        body: { email: 'a@example.com', password: 'x'.repeat(1024 * 1024 + 10) },
      });
      expect(response.status, path).toBe(413);
    }
  });

  it('let a tool call carry an image of several megabytes', async () => {
    const { client } = await verifiedUser(backend, 20);
    // Not an image: refused for what it is (400), not for its size.
    const response = await client.post<{ error: string }>('/api/remove-background', {
      image: `data:image/png;base64,${Buffer.alloc(3 * 1024 * 1024, 1).toString('base64')}`,
    });
    expect(response.status).toBe(400);
    expect(response.body.error).toBe('This file is not a PNG, JPG or WEBP image. Please choose another.');
  });

  it('refuse a tool call over its limit with a sentence naming the image limit (issue 38)', async () => {
    const { client } = await verifiedUser(backend, 20);
    const response = await client.post<{ error: string; success: boolean }>('/api/remove-background', {
      image: `data:image/png;base64,${'A'.repeat(15 * 1024 * 1024)}`,
    });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({
      success: false,
      error: 'Your upload is too large to send. Please choose an image of at most 10 MB.',
    });
  });
});

describe('a body refused as too large, over a real socket', () => {
  /** A client gives up on its socket after this: only a server that never ends the connection takes so long. */
  const HANG_MS = 10_000;
  let backend: TestBackend;
  let server: ReturnType<typeof serve>;
  let port: number;
  beforeAll(async () => {
    backend = await createTestBackend();
    server = await new Promise((resolve) => {
      const s = serve({ fetch: backend.app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
    });
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await backend.stop();
  });

  /**
   * Starts a POST whose Content-Length is over what the server reads of a refused body (four times
   * the limit: body-limit.ts), sends the first bytes of the body and no more (an upload on a phone
   * that has hardly begun), and reads the raw answer until the connection ends. `closedByServer`:
   * the server ended it (its FIN came) while the client still owed the body, not the client giving
   * up after HANG_MS.
   */
  function postOversize(path: string, size: number) {
    return new Promise<{ head: string; closedByServer: boolean }>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      let closedByServer = false;
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
      });
      socket.on('end', () => {
        closedByServer = true;
      });
      socket.on('error', reject);
      socket.on('close', () => resolve({ head: received.split('\r\n\r\n')[0] ?? '', closedByServer }));
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${backend.config.appUrl}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${size}\r\nConnection: keep-alive\r\n\r\n{"a":"`,
      );
      setTimeout(() => socket.destroy(), HANG_MS).unref();
    });
  }

  it('refuses a chunked body (no Content-Length) counted past the limit, once it has come', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString('latin1');
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
      const chunk = `{"email":"${'x'.repeat(1024 * 1024)}"}`;
      socket.write(
        `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nOrigin: ${backend.config.appUrl}\r\n` +
          `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n` +
          `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`,
      );
      setTimeout(() => socket.destroy(), HANG_MS).unref();
    });
    expect(answer).toMatch(/^HTTP\/1\.1 413/);
    expect(answer).toContain('This request is too large.');
  });

  it('says Connection: close when the body is too large to read through, so a browser never reuses the socket', async () => {
    for (const [path, size] of [
      ['/api/auth/sign-in/email', 4 * 1024 * 1024 + 10],
      ['/api/remove-background', 4 * 15 * 1024 * 1024 + 10],
    ] as const) {
      const answer = await postOversize(path, size);
      expect(answer.head, path).toMatch(/^HTTP\/1\.1 413/);
      expect(answer.head.toLowerCase(), path).toContain('connection: close');
      expect(answer.head.toLowerCase(), path).not.toContain('keep-alive');
      // And the server does close it, without waiting for the body, instead of leaving the client to
      // find out on its next request.
      expect(answer.closedByServer, path).toBe(true);
    }
  });
});
