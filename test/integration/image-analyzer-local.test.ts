// The Image Analyzer on the local engine, through the real route: the spec's analysis response
// (keywords with scores 0-1, named colours whose percentages add up to 100), charged 1 token.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { poster } from '../../src/server/inference/local/analyze/drawn-images';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend({ env: { INFERENCE_TOOLS: 'image-analyzer=local' } });
});
afterAll(() => backend.stop());

type Analysis = {
  success: boolean;
  keywords: { keyword: string; score: number }[];
  colors: { hex: string; name: string; percentage: number }[];
  balance: number;
};

it('answers keywords and a named palette for an uploaded photo', async () => {
  const user = await verifiedUser(backend, 20);
  const photo = readFileSync(path.join(import.meta.dirname, '../fixtures/images/coffee.png')).toString('base64');
  const response = await user.client.post<Analysis>('/api/analyze-image', { image: photo });
  expect(response.status).toBe(200);
  const { success, keywords, colors, balance } = response.body;
  expect(success).toBe(true);
  expect(balance).toBe(19);
  expect(await tokensOf(user.client)).toBe(19);

  expect(keywords.map((k) => k.keyword)).toEqual(expect.arrayContaining(['landscape orientation', 'colorful']));
  for (const { score } of keywords) expect(score).toBeGreaterThan(0);
  for (const { score } of keywords) expect(score).toBeLessThanOrEqual(1);
  expect(colors.length).toBeGreaterThanOrEqual(5);
  expect(colors.length).toBeLessThanOrEqual(8);
  for (const color of colors)
    expect(color).toEqual({
      hex: expect.stringMatching(/^#[0-9a-f]{6}$/),
      name: expect.any(String),
      percentage: expect.any(Number),
    });
  expect(colors.reduce((sum, c) => sum + c.percentage, 0)).toBe(100);
}, 60_000);

it('reads the words on an uploaded poster and calls it an illustration', async () => {
  const user = await verifiedUser(backend, 20);
  const image = (await poster('SUMMER SALE')).bytes.toString('base64');
  const response = await user.client.post<Analysis>('/api/analyze-image', { image });
  expect(response.status).toBe(200);
  expect(response.body.keywords.map((k) => k.keyword)).toEqual(
    expect.arrayContaining(['summer', 'sale', 'illustration']),
  );
}, 60_000);
