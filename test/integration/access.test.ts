// Who may reach what: session cookies that only travel over https in production, ids no one can
// guess (and that answer a stranger like a missing one), and a server that never fetches a URL a
// user hands it.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_MESSAGES } from '../../src/contract/input-limits';
import { TOOLS } from '../../src/contract/tools';
import { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { tokensOf, verifiedUser } from '../support/tool-fixtures';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function signUpCookies(backend: TestBackend): Promise<string[]> {
  const client = new TestClient(backend.app, backend.config.appUrl);
  const answer = await client.post('/api/auth/sign-up/email', {
    email: `cookie.${crypto.randomUUID()}@example.com`,
    password: 'a password 42',
    name: 'Cookie',
  });
  expect(answer.status).toBe(200);
  return answer.headers.getSetCookie();
}

describe('session cookies', () => {
  it('in production: https only (__Secure- prefix, Secure), out of scripts reach, not sent cross-site', async () => {
    const backend = await createTestBackend({
      env: {
        NODE_ENV: 'production',
        APP_URL: 'https://app.example',
        BETTER_AUTH_SECRET: 'access-test-secret-of-at-least-32-characters',
        // Sign-up only: no purchase is made, so the test checkout stands in for Stripe.
        UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION: 'true',
      },
    });
    try {
      const cookies = await signUpCookies(backend);
      const session = cookies.find((c) => c.includes('session_token'));
      expect(session).toMatch(/^__Secure-/);
      expect(session).toMatch(/;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);
      expect(session).toMatch(/;\s*SameSite=Lax/i);
    } finally {
      await backend.stop();
    }
  });

  it('in development over http: still HttpOnly and SameSite, without Secure (the browser would drop it)', async () => {
    const backend = await createTestBackend();
    try {
      const session = (await signUpCookies(backend)).find((c) => c.includes('session_token'));
      expect(session).not.toMatch(/__Secure-|;\s*Secure/i);
      expect(session).toMatch(/;\s*HttpOnly/i);
      expect(session).toMatch(/;\s*SameSite=Lax/i);
    } finally {
      await backend.stop();
    }
  });
});

describe('ids', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    backend = await createTestBackend();
  });
  afterAll(() => backend.stop());

  it('are random UUIDs, and one that was never handed out answers like a stranger asking: 404', async () => {
    const { client } = await verifiedUser(backend, 20);
    const calls = [];
    for (let i = 0; i < 2; i++) {
      const answer = await client.post<{ jobId: string; output: string[] }>('/api/generate-image', { prompt: 'ids' });
      expect(answer.status).toBe(200);
      calls.push(answer.body);
    }
    const fileIds = calls.map((c) => (c.output[0] as string).split('/').pop() as string);
    for (const id of [...calls.map((c) => c.jobId), ...fileIds]) expect(id).toMatch(UUID_V4);
    expect(new Set([...calls.map((c) => c.jobId), ...fileIds]).size).toBe(4);

    for (const path of [`/api/jobs/${crypto.randomUUID()}`, `/api/files/${crypto.randomUUID()}`]) {
      const answer = await client.get<{ error: string }>(path);
      expect(answer.status, path).toBe(404);
    }
    // Not an id at all: a clear 404 too, never a database error.
    const notUuids = [
      '-'.repeat(36),
      'a'.repeat(36),
      '0123456789abcdef0123456789abcdef----',
      'gggggggg-gggg-gggg-gggg-gggggggggggg',
    ];
    for (const path of [
      '/api/jobs/1',
      "/api/jobs/'%20or%201=1--",
      '/api/files/..%2F..%2Fetc%2Fpasswd',
      ...notUuids.flatMap((id) => [`/api/jobs/${id}`, `/api/files/${id}`]),
    ]) {
      expect((await client.get(path)).status, path).toBe(404);
    }
  });
});

describe('user-supplied URLs', () => {
  let backend: TestBackend;
  let hits = 0;
  const listener = createServer((_request, response) => {
    hits++;
    response.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  let url = '';
  beforeAll(async () => {
    backend = await createTestBackend();
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(listener.address() as AddressInfo).port}/photo.png`;
  });
  afterAll(async () => {
    await backend.stop();
    await new Promise((resolve) => listener.close(resolve));
  });

  it('are refused in every image field of every tool, and the server never fetches them', async () => {
    const { client } = await verifiedUser(backend, 100);
    const imageTools = TOOLS.filter((tool) => tool.id !== 'text-to-pic' && tool.id !== 'text-lab');
    expect(imageTools).toHaveLength(8);
    for (const tool of imageTools) {
      const field = tool.id === 'metamorphose' ? 'main_face_image' : 'image';
      for (const value of [url, `data:image/png;base64,${Buffer.from(url).toString('base64')}`]) {
        const answer = await client.post<{ error: string }>(`/api${tool.apiPath}`, {
          prompt: 'a beach',
          scale: 2,
          [field]: value,
        });
        expect(answer.status, `${tool.id} ${value.slice(0, 30)}`).toBe(400);
        // A URL is not an image: refused as one (in the field's words, or the sentence a page shows).
        expect(
          [`${field}: `, INPUT_MESSAGES.imageWrongFormat].some((start) => answer.body.error.startsWith(start)),
          `${tool.id}: ${answer.body.error}`,
        ).toBe(true);
      }
    }
    expect(hits).toBe(0);
    expect(await tokensOf(client)).toBe(100);
  });
});
