import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FIXTURE_IMAGES } from '../faces/fixture-image';
import { loadAnalysisPixels } from './analysis-pixels';
import { extractPalette, wholePercentages } from './palette';

const fixtures = readdirSync(FIXTURE_IMAGES).filter((f) => /\.(png|jpg)$/.test(f));

/** A solid image made of horizontal bands, each `[r, g, b, alpha]` covering the given rows. */
async function bands(width: number, rows: Array<{ height: number; rgba: [number, number, number, number] }>) {
  const height = rows.reduce((sum, r) => sum + r.height, 0);
  const data = Buffer.alloc(width * height * 4);
  let y = 0;
  for (const row of rows) {
    for (let i = y * width; i < (y + row.height) * width; i++) data.set(row.rgba, i * 4);
    y += row.height;
  }
  return sharp(data, { raw: { width, height, channels: 4 } })
    .png()
    .toBuffer();
}

const paletteOf = async (bytes: Buffer) => extractPalette(await loadAnalysisPixels(bytes));

describe('palette', () => {
  it.each(fixtures)('%s: 5 to 8 named colours whose whole percentages add up to 100', async (file) => {
    const colors = await paletteOf(readFileSync(path.join(FIXTURE_IMAGES, file)));
    expect(colors.length).toBeGreaterThanOrEqual(5);
    expect(colors.length).toBeLessThanOrEqual(8);
    for (const color of colors) {
      expect(color.hex).toMatch(/^#[0-9a-f]{6}$/);
      expect(color.name.trim()).not.toBe('');
      expect(Number.isInteger(color.percentage)).toBe(true);
      expect(color.percentage).toBeGreaterThan(0);
    }
    expect(colors.reduce((sum, c) => sum + c.percentage, 0)).toBe(100);
    const shares = colors.map((c) => c.percentage);
    expect(shares).toEqual([...shares].sort((a, b) => b - a));
    expect(new Set(colors.map((c) => c.hex)).size).toBe(colors.length);
  });

  it('names a pure red image red, at 100%', async () => {
    const colors = await paletteOf(await bands(64, [{ height: 64, rgba: [255, 0, 0, 255] }]));
    expect(colors).toEqual([{ hex: '#ff0000', name: 'Red', percentage: 100 }]);
  });

  it('measures the area each colour covers: a quarter blue, three quarters yellow', async () => {
    const colors = await paletteOf(
      await bands(40, [
        { height: 10, rgba: [0, 0, 255, 255] },
        { height: 30, rgba: [255, 255, 0, 255] },
      ]),
    );
    expect(colors.map((c) => [c.name, c.percentage])).toEqual([
      ['Yellow', 75],
      ['Blue', 25],
    ]);
  });

  it('ignores transparent pixels, and has no colours for a fully transparent image', async () => {
    const halfClear = await bands(32, [
      { height: 24, rgba: [0, 0, 0, 0] },
      { height: 8, rgba: [0, 255, 0, 255] },
    ]);
    expect(await paletteOf(halfClear)).toEqual([{ hex: '#00ff00', name: 'Green', percentage: 100 }]);
    expect(await paletteOf(await bands(16, [{ height: 16, rgba: [255, 0, 0, 0] }]))).toEqual([]);
  });

  it('names colours by their nearest listed colour, not only exact matches', async () => {
    const [slightlyOffBlue] = await paletteOf(await bands(8, [{ height: 8, rgba: [0, 0, 250, 255] }]));
    expect(slightlyOffBlue).toEqual({ hex: '#0000fa', name: 'Blue', percentage: 100 });
    const [cherry] = await paletteOf(await bands(8, [{ height: 8, rgba: [250, 2, 3, 255] }]));
    expect(cherry?.name).toBe('Apple Cherry');
  });
});

describe('wholePercentages', () => {
  it('rounds so that the sum is exactly 100, giving the leftover points to the largest remainders', () => {
    expect(wholePercentages([1, 1, 1])).toEqual([34, 33, 33]);
    expect(wholePercentages([0.555, 0.245, 0.2])).toEqual([56, 24, 20]);
    expect(wholePercentages([2, 1, 1, 1, 1, 1, 1])).toEqual([25, 13, 13, 13, 12, 12, 12]);
  });

  it('scales shares that do not add up to 1', () => {
    expect(wholePercentages([3, 1])).toEqual([75, 25]);
  });
});
