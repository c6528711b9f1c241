import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fixtureImage, imageInputFrom } from '../faces/fixture-image';
import type { RawImage } from '../raw-image';
import { type AnalyzerModels, analyzeImage, imageAnalyzerEngine, mergeKeywords } from './analyze-image';

/** Models that find nothing and call everything a photo: for what the pixels alone give. */
const noModels: AnalyzerModels = {
  vision: async () => [],
  text: async () => [],
  classifier: { classify: async () => ({ Drawing: 0, Hentai: 0, Neutral: 1, Porn: 0, Sexy: 0 }) },
};

describe('Image Analyzer (local engine)', () => {
  it('answers keywords from the vision models and the pixels, and a palette, for a portrait photo', async () => {
    const image = await fixtureImage('grace_hopper.jpg');
    const result = await imageAnalyzerEngine({ image }, new AbortController().signal);
    if (result.kind !== 'analysis') throw new Error(`expected an analysis, got ${result.kind}`);

    const words = result.keywords.map((k) => k.keyword);
    expect(words).toEqual(expect.arrayContaining(['portrait orientation', 'face', 'person', 'photo']));
    expect(words).not.toContain('illustration');
    expect(new Set(words).size).toBe(words.length);
    expect(result.keywords.length).toBeLessThanOrEqual(12);
    const scores = result.keywords.map((k) => k.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const score of scores) expect(score).toBeGreaterThan(0);
    for (const score of scores) expect(score).toBeLessThanOrEqual(1);

    expect(result.colors.length).toBeGreaterThanOrEqual(5);
    expect(result.colors.reduce((sum, c) => sum + c.percentage, 0)).toBe(100);
  }, 60_000);

  it('keeps each keyword once at its best score, the strongest first', async () => {
    const noVision = async () => [
      { keyword: 'transparent', score: 0.4 },
      { keyword: 'cup', score: 0.7 },
    ];
    const clear = await sharp({ create: { width: 30, height: 10, channels: 4, background: '#ff000000' } })
      .png()
      .toBuffer();
    const result = await analyzeImage(await imageInputFrom(clear), undefined, { ...noModels, vision: noVision });
    expect(result).toEqual({
      kind: 'analysis',
      keywords: [
        { keyword: 'landscape orientation', score: 1 },
        { keyword: 'transparent', score: 1 },
        { keyword: 'cup', score: 0.7 },
      ],
      colors: [],
    });
  });

  it('decodes the upload once, upright and at most 1024 px, for the vision models', async () => {
    const seen: RawImage[] = [];
    const recordVision = async (image: RawImage) => {
      seen.push(image);
      return [];
    };
    // 3000x1200 stored on its side: EXIF orientation 6 turns it upright.
    const sideways = await sharp({ create: { width: 1200, height: 3000, channels: 3, background: '#336699' } })
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const result = await analyzeImage(await imageInputFrom(sideways), undefined, { ...noModels, vision: recordVision });
    expect(seen.map(({ width, height, channels }) => ({ width, height, channels }))).toEqual([
      { width: 1024, height: 410, channels: 3 },
    ]);
    expect(result.keywords).toContainEqual({ keyword: 'landscape orientation', score: 1 });
  });

  it('rejects bytes that are not an image and says so', async () => {
    const notAnImage = { bytes: Buffer.from('not an image'), mime: 'image/png' as const, width: 1, height: 1 };
    await expect(analyzeImage(notAnImage)).rejects.toThrow(/unsupported image format/);
  });

  it('lists at most 12 keywords, dropping the weakest', () => {
    const many = Array.from({ length: 20 }, (_, i) => ({ keyword: `k${i}`, score: i / 20 }));
    const merged = mergeKeywords(many);
    expect(merged).toHaveLength(12);
    expect(merged[0]).toEqual({ keyword: 'k19', score: 0.95 });
    expect(merged.at(-1)).toEqual({ keyword: 'k8', score: 0.4 });
  });
});
