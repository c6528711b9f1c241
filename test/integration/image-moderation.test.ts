// The explicit-content check of uploads, through the real tool route with a fake classifier: an
// image it finds explicit is refused with the spec's kind of message, charges nothing and leaves
// no job; NSFW_THRESHOLD moves the line and NSFW_POLICY=allow turns the check off.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, ledger } from '../../src/server/db/schema';
import type { NsfwClassifier, NsfwScores } from '../../src/server/images/moderation/image-moderation';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const MESSAGE = 'This image cannot be processed because it appears to contain explicit content.';

// The fake tells images apart by their width: each test image size stands for one verdict.
const EXPLICIT = 66; // Porn 0.5 + Hentai 0.3 = 0.8
const BORDERLINE = 67; // Porn 0.6
const SUGGESTIVE = 68; // Sexy 0.99: not an explicit class
const SCORES: Record<number, Partial<NsfwScores>> = {
  [EXPLICIT]: { Porn: 0.5, Hentai: 0.3, Neutral: 0.2 },
  [BORDERLINE]: { Porn: 0.6, Neutral: 0.4 },
  [SUGGESTIVE]: { Sexy: 0.99, Neutral: 0.01 },
};

function fakeClassifier() {
  const seen: number[] = [];
  const classifier: NsfwClassifier = {
    async classify(image) {
      seen.push(image.width);
      return { Drawing: 0, Hentai: 0, Neutral: 1, Porn: 0, Sexy: 0, ...SCORES[image.width] };
    },
  };
  return { classifier, seen };
}

const imageOf = async (width: number) => dataUrl(await pngBytes(width, 40));

async function backendWith(env: Record<string, string>) {
  const fake = fakeClassifier();
  // A paid provider: what is charged and what is not is the point here (the demo would be free).
  const backend = await createTestBackend({
    env,
    nsfwClassifier: fake.classifier,
    inference: routerWith(instantProvider()),
  });
  return { backend, seen: fake.seen };
}

async function expectNothingCharged(backend: TestBackend, client: Awaited<ReturnType<typeof verifiedUser>>) {
  expect(await tokensOf(client.client)).toBe(100);
  expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, client.id))).toEqual([]);
  const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, client.id));
  expect(rows.filter((r) => r.reason === 'job')).toEqual([]);
}

describe('NSFW_POLICY=block (default), NSFW_THRESHOLD=0.7 (default)', () => {
  let backend: TestBackend;
  let seen: number[];
  beforeAll(async () => {
    ({ backend, seen } = await backendWith({}));
  });
  afterAll(() => backend.stop());

  it('refuses an explicit upload with 400 and a clear message, charging nothing and making no job', async () => {
    const user = await verifiedUser(backend, 100);
    const analyze = await user.client.post('/api/analyze-image', { image: await imageOf(EXPLICIT) });
    expect(analyze.status).toBe(400);
    expect(analyze.body).toEqual({ success: false, error: MESSAGE });
    const upscale = await user.client.post('/api/upscale-image', { image: await imageOf(EXPLICIT), scale: 2 });
    expect(upscale.status).toBe(400);
    expect(upscale.body).toEqual({ success: false, error: MESSAGE });
    await expectNothingCharged(backend, user);
    expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
  });

  it('runs and charges images below the threshold, and suggestive ones', async () => {
    const user = await verifiedUser(backend, 100);
    for (const width of [BORDERLINE, SUGGESTIVE]) {
      const response = await user.client.post<{ success: boolean; balance: number }>('/api/analyze-image', {
        image: await imageOf(width),
      });
      expect(response.status).toBe(200);
      expect(response.body.success).toBe(true);
    }
    expect(await tokensOf(user.client)).toBe(98);
  });

  it('classifies only calls that carry an image, after the cheaper checks', async () => {
    const broke = await verifiedUser(backend, 0);
    const before = seen.length;
    const poor = await broke.client.post('/api/analyze-image', { image: await imageOf(EXPLICIT) });
    expect(poor.status).toBe(402);
    const user = await verifiedUser(backend, 100);
    const text = await user.client.post('/api/generate-image', { prompt: 'a lighthouse', numOutputs: 1 });
    expect(text.status).toBe(200);
    expect(seen.length).toBe(before);
  });
});

describe('NSFW_THRESHOLD=0.5', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    ({ backend } = await backendWith({ NSFW_THRESHOLD: '0.5' }));
  });
  afterAll(() => backend.stop());

  it('refuses what the default threshold lets through', async () => {
    const user = await verifiedUser(backend, 100);
    const response = await user.client.post('/api/analyze-image', { image: await imageOf(BORDERLINE) });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ success: false, error: MESSAGE });
    await expectNothingCharged(backend, user);
  });
});

describe('NSFW_POLICY=allow', () => {
  let backend: TestBackend;
  let seen: number[];
  beforeAll(async () => {
    ({ backend, seen } = await backendWith({ NSFW_POLICY: 'allow' }));
  });
  afterAll(() => backend.stop());

  it('runs and charges every image without classifying it', async () => {
    const user = await verifiedUser(backend, 100);
    const response = await user.client.post<{ success: boolean }>('/api/analyze-image', {
      image: await imageOf(EXPLICIT),
    });
    expect(response.status).toBe(200);
    expect(response.body.success).toBe(true);
    expect(await tokensOf(user.client)).toBe(99);
    expect(seen).toEqual([]);
  });
});
