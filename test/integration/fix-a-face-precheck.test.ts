// Fix a Face on the local engine says what it can do before it charges: a photo without a face, or
// whose face is too small to restore, is refused (422) with the reason and what to try; nothing is
// charged and nothing is stored. A real portrait passes the check and is charged, its job queued.
// The backend serves the web role only, so no worker runs the restoration (the check is the web's):
// e2e/tools.test.ts runs a portrait through Fix a Face to its file and charge in the real server, and
// fix-a-face.test.ts weighs the restoration itself.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files, jobs } from '../../src/server/db/schema';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { tokensOf, verifiedUser } from '../support/tool-fixtures';

const fixture = (name: string) => readFileSync(path.join(import.meta.dirname, '../fixtures/images', name));

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend({
    env: { INFERENCE_TOOLS: 'fix-a-face=local', TOOL_WAIT_SECONDS: '0' },
    role: { web: true, worker: false },
  });
});
afterAll(() => backend.stop());

type Answer = { success: boolean; error?: string; pending?: boolean; status?: string; balance?: number };

async function fixFace(image: Buffer) {
  const user = await verifiedUser(backend, 20);
  const answer = await user.client.post<Answer>('/api/fix-face', { image: image.toString('base64'), scale: 2 });
  const rowsOf = async () => ({
    jobs: await backend.database.db.select().from(jobs).where(eq(jobs.userId, user.id)),
    files: await backend.database.db.select().from(files).where(eq(files.userId, user.id)),
  });
  return { answer, tokens: await tokensOf(user.client), rows: await rowsOf() };
}

describe('Fix a Face on the local engine, before the charge', { timeout: 120_000 }, () => {
  it('refuses a photo without a face: 422, what to try, nothing charged or stored', async () => {
    const { answer, tokens, rows } = await fixFace(fixture('coffee.png'));
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      success: false,
      error: "We couldn't find a face in this photo. Try a photo where the face is clear and faces the camera.",
    });
    expect(tokens).toBe(20);
    expect(rows).toEqual({ jobs: [], files: [] });
  });

  it('refuses a face too small to restore, saying its size and the size wanted', async () => {
    // Grace Hopper's portrait at 128 px wide: her face is boxed at about 80 px.
    const small = await sharp(fixture('grace_hopper.jpg')).resize(128).jpeg({ quality: 80 }).toBuffer();
    const { answer, tokens, rows } = await fixFace(small);
    expect(answer.status).toBe(422);
    expect(answer.body.error).toMatch(
      /^The face in this photo is too small for Fix a Face \(about \d+ px\)\. Try a photo where the face is at least 96 pixels tall, or use Image Upscaler\.$/,
    );
    expect(tokens).toBe(20);
    expect(rows).toEqual({ jobs: [], files: [] });
  });

  it('charges a real portrait and queues its job', async () => {
    // At 256 px wide her face is about 160 px tall, past the 96 px the engine restores.
    const portrait = await sharp(fixture('grace_hopper.jpg')).resize(256).jpeg({ quality: 90 }).toBuffer();
    const { answer, tokens, rows } = await fixFace(portrait);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ success: false, pending: true, status: 'queued', balance: 18 });
    expect(tokens).toBe(18);
    expect(rows.jobs.map((job) => job.status)).toEqual(['queued']);
  });
});
