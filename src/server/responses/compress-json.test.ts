import { gunzipSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { COMPRESS_JSON_ABOVE_BYTES, compressJson } from './compress-json';

const jobs = Array.from({ length: 50 }, (_, i) => ({ id: `job-${i}`, tool: 'text-to-pic', status: 'succeeded' }));
const app = new Hono()
  .use('*', compressJson())
  .get('/jobs', (c) => c.json({ jobs }))
  .get('/balance', (c) => c.json({ balance: 12 }))
  .get('/refused', (c) => {
    c.header('Retry-After', '15');
    return c.json({ error: 'Zu viele Aufträge – später' }, 429, { 'Cache-Control': 'no-store' });
  })
  .get('/made-elsewhere', () => Response.json({ jobs }))
  .get('/image', (c) => c.body(new Uint8Array(4096), 200, { 'Content-Type': 'image/png' }));
const gzipAccepted = { headers: { 'Accept-Encoding': 'gzip, deflate, br' } };

describe('API answers compressed', () => {
  it('gzips JSON above the threshold, and the client reads the same JSON', async () => {
    expect(JSON.stringify({ jobs }).length).toBeGreaterThan(COMPRESS_JSON_ABOVE_BYTES);
    const response = await app.request('/jobs', gzipAccepted);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(response.headers.get('vary')).toContain('Accept-Encoding');
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.length).toBeLessThan(JSON.stringify({ jobs }).length / 4);
    expect(JSON.parse(gunzipSync(body).toString())).toEqual({ jobs });
  });

  it('sends small JSON as it is', async () => {
    const response = await app.request('/balance', gzipAccepted);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual({ balance: 12 });
  });

  it('says how long a small answer is, in bytes, with its status and headers kept', async () => {
    const response = await app.request('/refused', gzipAccepted);
    expect(response.status).toBe(429);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('retry-after')).toBe('15');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = Buffer.from(await response.arrayBuffer());
    expect(response.headers.get('content-length')).toBe(String(body.length));
    expect(body.length).toBeGreaterThan('{"error":"Zu viele Aufträge – später"}'.length); // ä and – take 2 and 3 bytes
    expect(JSON.parse(body.toString())).toEqual({ error: 'Zu viele Aufträge – später' });
  });

  it('gzips big JSON that a handler made without c.json', async () => {
    const response = await app.request('/made-elsewhere', gzipAccepted);
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await response.arrayBuffer())).toString())).toEqual({ jobs });
  });

  it('sends JSON as it is to a client that accepts no compression', async () => {
    const response = await app.request('/jobs');
    expect(response.headers.get('content-encoding')).toBeNull();
    expect(await response.json()).toEqual({ jobs });
  });

  it('leaves images alone', async () => {
    const response = await app.request('/image', gzipAccepted);
    expect(response.headers.get('content-encoding')).toBeNull();
    expect((await response.arrayBuffer()).byteLength).toBe(4096);
  });
});
