// Issue 36: a valid progressive JPEG of hundreds of empty scans took tens of seconds to decode, on
// the threads that also serve every file read, for free. It is refused before any decode now (no
// decode slot is ever asked for it), so another user's file reads are served beside the posts.
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { jobs } from '../../src/server/db/schema';
import { decodeSlots } from '../../src/server/images/decode-slots';
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
  it('is a 400 before any decode, charges nothing, and leaves another user’s file reads served', async () => {
    const attackers = [await verifiedUser(backend, 100), await verifiedUser(backend, 100)];
    const reader = await verifiedUser(backend, 20);
    const made = await reader.client.post<{ output: string }>('/api/upscale-image', {
      image: dataUrl(await pngBytes(40, 30)),
      scale: 2,
    });
    expect(made.status).toBe(200);
    const attack = dataUrl(manyScansJpeg(4096), 'image/jpeg');

    // From here on only the attack is posted: any decode would be of its JPEG.
    const decodes = vi.spyOn(decodeSlots, 'run');
    try {
      const posts = attackers.flatMap(({ client }) =>
        [0, 1].map(() =>
          client.request<{ error: string }>('POST', '/api/colorize-image', {
            body: { image: attack },
            headers: { prefer: 'wait=0' },
          }),
        ),
      );
      const read = await reader.client.fetchRaw(made.body.output);
      const answers = await Promise.all(posts);

      for (const answer of answers) {
        expect(answer.status).toBe(400);
        expect(answer.body.error).toBe(TOO_MANY_SCANS);
      }
      // Refused from the bytes alone: no thread of the pool that serves file reads spent on it.
      expect(decodes).not.toHaveBeenCalled();
      expect(read.status).toBe(200);
      expect((await read.arrayBuffer()).byteLength).toBeGreaterThan(0);
    } finally {
      decodes.mockRestore();
    }
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
