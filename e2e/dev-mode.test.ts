// `npm run dev`: Vite's dev server (hot reload) in front of the real server. Pages come from Vite,
// the API, the outbox and the test checkout through its proxy, and state changes from Vite's origin
// pass the Origin checks. Stopping the server stops Vite too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, type ServerProcess, startServerProcess } from './support/server';

describe('npm run dev', () => {
  let server: ServerProcess;
  let devUrl: string;

  beforeAll(async () => {
    const devPort = await freePort();
    devUrl = `http://localhost:${devPort}`;
    // APP_URL empty: dev mode's own default (Vite's address) applies.
    server = await startServerProcess({
      args: ['--dev'],
      env: { DEV_PORT: String(devPort), APP_URL: '', INFERENCE_PROVIDER: 'demo', LOG_LEVEL: 'info' },
    });
    // Vite starts beside the server: waited for until the hook's own limit, which only catches a hang.
    const gaveUpAt = Date.now() + 150_000;
    while (Date.now() < gaveUpAt) {
      const up = await fetch(devUrl).catch(() => null);
      if (up?.ok) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`Vite did not start:\n${server.output()}`);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('serves the pages from Vite with hot reload and the server behind its proxy', async () => {
    const page = await (await fetch(`${devUrl}/text-to-pic`)).text();
    expect(page).toContain('/@vite/client');
    expect(page).toContain('Picture Palette');

    const health = await fetch(`${devUrl}/api/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    // A sign-up from Vite's origin passes the Origin check; the session cookie comes back.
    const signUp = await fetch(`${devUrl}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { origin: devUrl, 'content-type': 'application/json' },
      body: JSON.stringify({ email: `dev.${Date.now()}@example.com`, password: 'a password 42', name: 'Dev' }),
    });
    expect(signUp.status).toBe(200);
    expect(signUp.headers.getSetCookie().some((c) => c.includes('session_token'))).toBe(true);

    // The outbox is the server's page, not the app's.
    const outbox = await fetch(`${devUrl}/dev/mail`);
    expect(outbox.status).toBe(200);
    expect(await outbox.text()).not.toContain('/@vite/client');
    expect(server.output()).toContain(`open ${devUrl}`);
  });

  it('stops Vite when the server stops', async () => {
    await server.stop();
    await expect
      .poll(async () => (await fetch(devUrl).catch(() => null)) !== null, { timeout: 60_000, interval: 250 })
      .toBe(false);
  }, 90_000);
});
