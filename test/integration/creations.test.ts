// My Creations through the API (issue 17): the owner's jobs newest first, page by page and by
// tool, with cost, settings and images; deleting one removes its files (on the filesystem and on
// S3) and keeps the ledger's rows.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Creation, CreationList } from '../../src/contract/creations';
import type { JobList } from '../../src/contract/tool-responses';
import { thumbnailKey } from '../../src/server/creations/thumbnails';
import { files, jobs, ledger } from '../../src/server/db/schema';
import { type FakeS3, startFakeS3 } from '../support/fake-s3';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, paidLookalikeOfDemo, pngBytes, routerWith, verifiedUser } from '../support/tool-fixtures';

let s3: FakeS3;
beforeAll(async () => {
  s3 = await startFakeS3();
});
afterAll(() => s3?.stop());

describe.each(['fs', 's3'] as const)('My Creations on %s storage', (kind) => {
  let backend: TestBackend;
  beforeAll(async () => {
    // A paid provider (the demo's results are free previews): the ledger has something to keep.
    backend = await createTestBackend({
      ...(kind === 's3' ? { env: s3.env } : {}),
      inference: routerWith(paidLookalikeOfDemo()),
    });
  });
  afterAll(() => backend.stop());

  const upscale = async (client: TestClient, width = 800, height = 600) => {
    const answer = await client.post<{ jobId: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes(width, height)),
      scale: 2,
    });
    expect(answer.status).toBe(200);
    return answer.body.jobId;
  };
  const list = (client: TestClient, query = '') =>
    client.get<CreationList & { error?: string }>(`/api/creations${query}`);
  const status = async (client: TestClient, url: string) => (await client.fetchRaw(url)).status;

  it('lists the owner’s jobs newest first with cost, settings, inputs with thumbnails and outputs', async () => {
    const { client } = await verifiedUser(backend);
    const first = await upscale(client);
    const pic = await client.post<{ jobId: string }>('/api/generate-image', {
      prompt: 'a red fox in snow',
      numOutputs: 2,
    });
    expect(pic.status).toBe(200);

    const { status: code, body } = await list(client);
    expect(code).toBe(200);
    expect(body.creations.map((c) => c.id)).toEqual([pic.body.jobId, first]);
    const [text, up] = body.creations as [Creation, Creation];
    expect(text).toMatchObject({ tool: 'text-to-pic', status: 'succeeded', charged: 2, refunded: 0, inputs: [] });
    expect(text.settings).toMatchObject({ prompt: 'a red fox in snow', numOutputs: 2 });
    expect(text.outputs).toHaveLength(2);
    expect(up).toMatchObject({ tool: 'image-upscaler', charged: 1, settings: { scale: 2 }, shareUrl: null });
    expect(Object.values(up.settings).join(' ')).not.toContain('base64');
    expect(up.inputs).toEqual([expect.objectContaining({ width: 800, height: 600 })]);
    expect(up.outputs).toEqual([expect.objectContaining({ width: 1600, height: 1200 })]);

    const thumbnail = await client.fetchRaw(up.inputs[0]?.thumbnailUrl ?? '');
    expect(thumbnail.headers.get('content-type')).toBe('image/webp');
    const meta = await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([512, 384]);
    expect(await status(client, up.outputs[0]?.url ?? '')).toBe(200);
    expect(await status(client, up.outputs[0]?.thumbnailUrl ?? '')).toBe(200);
  });

  it('pages with a cursor, filters by tool, and shows nothing of another user’s', async () => {
    const { client } = await verifiedUser(backend, 40);
    const ids = [await upscale(client, 40, 30), await upscale(client, 40, 30), await upscale(client, 40, 30)];
    await client.post('/api/remove-background', { image: dataUrl(await pngBytes(40, 30)) });

    const page1 = await list(client, '?tool=image-upscaler&limit=2');
    expect(page1.body.creations.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    expect(page1.body.next).toEqual(expect.any(String));
    const page2 = await list(client, `?tool=image-upscaler&limit=2&cursor=${page1.body.next}`);
    expect(page2.body).toEqual({ creations: [expect.objectContaining({ id: ids[0] })], next: null });
    expect((await list(client)).body.creations).toHaveLength(4);

    const other = (await verifiedUser(backend)).client;
    expect((await list(other)).body).toEqual({ creations: [], next: null });
    expect(await status(other, `/api/files/${page2.body.creations[0]?.inputs[0]?.id}/thumbnail`)).toBe(404);
  });

  /** Three failed colorizer jobs of the user, created at `createdAt(1..3)`. */
  const threeJobs = (userId: string, createdAt: (n: number) => Date | SQL) =>
    backend.database.db
      .insert(jobs)
      .values(
        [1, 2, 3].map((n) => ({
          userId,
          tool: 'colorizer',
          cost: 6,
          charged: 0,
          input: {},
          provider: 'demo',
          requestHash: 'x',
          status: 'failed' as const,
          createdAt: createdAt(n),
        })),
      )
      .returning();

  /** Every creation's id, one page at a time, following the server's cursor. */
  async function pageThrough(client: TestClient) {
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await list(client, `?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.creations.map((c) => c.id));
      cursor = page.body.next ?? '';
    } while (cursor);
    return seen;
  }

  it('pages through jobs created in the same instant without skipping or repeating one', async () => {
    const { client, id: userId } = await verifiedUser(backend);
    const rows = await threeJobs(userId, () => new Date('2026-01-02T03:04:05.678Z'));
    expect((await pageThrough(client)).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it("pages through jobs made within one millisecond in order, each once, and takes an earlier build's cursor", async () => {
    const { client, id: userId } = await verifiedUser(backend);
    // created_at is kept to the microsecond: a cursor to the millisecond would skip the other two.
    const rows = await threeJobs(
      userId,
      (us) => sql`'2026-01-02T03:04:05.678Z'::timestamptz + make_interval(secs => ${us / 1e6})`,
    );
    expect(await pageThrough(client)).toEqual(rows.map((r) => r.id).reverse());

    const earlier = Buffer.from(`2026-01-02T03:04:05.679Z|${rows[0]?.id}`).toString('base64url');
    expect((await list(client, `?cursor=${earlier}`)).body.creations.map((c) => c.id)).toEqual(
      rows.map((r) => r.id).reverse(),
    );
  });

  it("pages GET /api/jobs the same way, each job once, and takes an earlier build's `before` time", async () => {
    const { client, id: userId } = await verifiedUser(backend);
    const rows = await threeJobs(
      userId,
      (us) => sql`'2026-01-02T03:04:05.678Z'::timestamptz + make_interval(secs => ${us / 1e6})`,
    );
    const history = (query: string) => client.get<JobList>(`/api/jobs${query}`);
    const seen: string[] = [];
    let before = '';
    do {
      const page = await history(`?limit=1${before ? `&before=${before}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.jobs.map((j) => j.id));
      before = page.body.next ?? '';
    } while (before && seen.length < 10);
    expect(seen).toEqual(rows.map((r) => r.id).reverse());

    // An earlier build answered the last job's time to the millisecond: the jobs strictly before it.
    expect((await history('?before=2026-01-02T03:04:05.679Z')).body.jobs.map((j) => j.id)).toEqual(
      rows.map((r) => r.id).reverse(),
    );
    expect((await history('?before=2026-01-02T03:04:05.678Z')).body.jobs).toEqual([]);
    const madeUp = await history('?before=yesterday');
    expect(madeUp.status).toBe(400);
    expect(madeUp.body).toEqual({ error: 'before: must be the next value of a previous page' });
  });

  it('answers 400 for an unknown tool, a made-up cursor or a limit out of 1..100, and 401 signed out', async () => {
    const { client } = await verifiedUser(backend);
    expect((await list(client, '?tool=photoshop')).status).toBe(400);
    expect((await list(client, '?cursor=not-a-cursor')).status).toBe(400);
    expect((await list(client, '?limit=0')).status).toBe(400);
    expect((await list(client, '?limit=101')).status).toBe(400);
    expect((await list(client, '?limit=2.5')).body.error).toContain('limit');
    // GET /api/jobs takes its limit by the same rule: a non-integer was a 500 (issue 36).
    for (const limit of ['1.5', '0', '101', 'ten']) {
      const jobs = await client.get<{ error: string }>(`/api/jobs?limit=${limit}`);
      expect([jobs.status, jobs.body.error]).toEqual([400, 'limit: must be a whole number from 1 to 100']);
    }
    const signedOut = await backend.app.request('/api/creations');
    expect(signedOut.status).toBe(401);
  });

  it('deletes a creation’s inputs, outputs and thumbnails; the ledger keeps its rows', async () => {
    const { client, id: userId } = await verifiedUser(backend);
    const jobId = await upscale(client);
    const [creation] = (await list(client)).body.creations as [Creation];
    const urls = [...creation.inputs, ...creation.outputs].flatMap((i) => [i.url, i.thumbnailUrl]);
    for (const url of urls) expect(await status(client, url)).toBe(200);
    const rows = await backend.database.db.select().from(files).where(eq(files.jobId, jobId));
    const keys = rows.flatMap((f) => [f.storageKey, thumbnailKey(f.id)]);
    for (const key of keys) expect(await backend.storage.get(key)).not.toBeNull();

    const other = (await verifiedUser(backend)).client;
    expect((await other.request('DELETE', `/api/creations/${jobId}`)).status).toBe(404);
    expect((await client.request('DELETE', `/api/creations/${jobId}`)).status).toBe(204);

    for (const url of urls) expect(await status(client, url)).toBe(404);
    for (const key of keys) expect(await backend.storage.get(key)).toBeNull();
    expect((await list(client)).body.creations).toEqual([]);
    const kept = await backend.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.userId, userId), eq(ledger.reference, jobId)));
    expect(kept).toHaveLength(1);
    expect((await client.request('DELETE', `/api/creations/${jobId}`)).status).toBe(404);
    expect((await client.request('DELETE', '/api/creations/not-a-uuid')).status).toBe(404);
  });

  it('refuses to delete a queued or running job (409) and changes nothing', async () => {
    const { client, id: userId } = await verifiedUser(backend);
    const [queued] = await backend.database.db
      .insert(jobs)
      // Due in an hour: the backend's worker must not take it (and end it) before the delete is asked.
      .values({
        userId,
        tool: 'image-upscaler',
        cost: 1,
        charged: 0,
        input: {},
        provider: 'demo',
        requestHash: 'x',
        runAfter: new Date(Date.now() + 3_600_000),
      })
      .returning();
    const answer = await client.request<{ error: string }>('DELETE', `/api/creations/${queued?.id}`);
    expect(answer.status).toBe(409);
    expect(answer.body.error).toContain('still running');
    expect((await list(client)).body.creations.map((c) => c.id)).toEqual([queued?.id]);
  });
});
