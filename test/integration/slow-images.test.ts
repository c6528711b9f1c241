// Issue 36: a valid progressive JPEG of hundreds of empty scans took tens of seconds to decode, on
// the threads that also serve every file read, for free. It is refused before decoding now, and
// another user's reads stay fast while several are posted.
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs } from '../../src/server/db/schema';
import { TOO_MANY_SCANS } from '../../src/server/images/image-input';
import { manyScansJpeg } from '../../src/server/images/many-scans-jpeg';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;

beforeAll(async () => {
  backend = await createTestBackend({ inference: routerWith(instantProvider()) });
});
afterAll(() => backend.stop());

describe('a JPEG made to stall the decoder', () => {
  it('is a 400 within a second, charges nothing, and leaves another user’s file reads fast', async () => {
    const attackers = [await verifiedUser(backend, 100), await verifiedUser(backend, 100)];
    const reader = await verifiedUser(backend, 20);
    const made = await reader.client.post<{ output: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes(40, 30)),
      scale: 2,
    });
    expect(made.status).toBe(200);
    const attack = dataUrl(manyScansJpeg(4096), 'image/jpeg');

    const posts = attackers.flatMap(({ client }) =>
      [0, 1].map(async () => {
        const started = performance.now();
        const answer = await client.request<{ error: string }>('POST', '/api/colorize-image', {
          body: { image: attack },
          headers: { prefer: 'wait=0' },
        });
        return { ...answer, ms: performance.now() - started };
      }),
    );
    const readStarted = performance.now();
    const read = await reader.client.fetchRaw(made.body.output);
    const readMs = performance.now() - readStarted;
    const answers = await Promise.all(posts);

    for (const answer of answers) {
      expect(answer.status).toBe(400);
      expect(answer.body.error).toBe(TOO_MANY_SCANS);
      expect(answer.ms).toBeLessThan(1000);
    }
    expect(read.status).toBe(200);
    expect(readMs).toBeLessThan(500);
    for (const { client } of attackers) expect(await tokensOf(client)).toBe(100);
    const left = await backend.database.db
      .select({ id: jobs.id })
      .from(jobs)
      .where(
        and(
          inArray(
            jobs.userId,
            attackers.map((a) => a.id),
          ),
          eq(jobs.tool, 'colorizer'),
        ),
      );
    expect(left).toEqual([]);
  });
});
