// The running server, over HTTP, as a load balancer or an operator sees it.
import { describe, expect, inject, it } from 'vitest';

const baseUrl = inject('baseUrl');

describe('the running server', () => {
  it('answers /api/health with the database, the queue and the providers', async () => {
    const response = await fetch(`${baseUrl}/api/health`);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toMatchObject({
      status: 'ok',
      process: { web: true, worker: true },
      database: { status: 'ok', dialect: 'pglite' },
      queue: { status: 'ok' },
      providers: { inference: { provider: 'local' }, payments: { provider: 'local' }, mail: { provider: 'outbox' } },
    });
  });

  it('serves the app for client routes (prerendered, or the shell) and JSON 404 for unknown API routes', async () => {
    const page = await fetch(`${baseUrl}/image-analyzer`);
    expect(page.status).toBe(200);
    // A menu page comes prerendered (decision 021); a page that is not, as the bare shell.
    expect(await page.text()).toContain('<div id="root" data-prerendered');
    const shell = await fetch(`${baseUrl}/reset-password`);
    expect(shell.status).toBe(200);
    expect(await shell.text()).toContain('<div id="root"></div>');
    const api = await fetch(`${baseUrl}/api/unknown`);
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: 'No API route for GET /api/unknown' });
  });
});
