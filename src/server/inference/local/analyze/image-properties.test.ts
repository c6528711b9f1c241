import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FIXTURE_IMAGES } from '../faces/fixture-image';
import { loadAnalysisPixels } from './analysis-pixels';
import { imageProperties } from './image-properties';

const solid = (width: number, height: number, rgba: [number, number, number, number]) =>
  sharp({
    create: { width, height, channels: 4, background: { r: rgba[0], g: rgba[1], b: rgba[2], alpha: rgba[3] / 255 } },
  })
    .png()
    .toBuffer();

async function keywordsOf(bytes: Buffer) {
  const keywords = imageProperties(await loadAnalysisPixels(bytes));
  for (const k of keywords) {
    expect(k.score).toBeGreaterThan(0);
    expect(k.score).toBeLessThanOrEqual(1);
  }
  return Object.fromEntries(keywords.map((k) => [k.keyword, k.score]));
}

describe('image properties', () => {
  it('tells the orientation from the upright size', async () => {
    expect(await keywordsOf(await solid(300, 200, [90, 90, 90, 255]))).toHaveProperty('landscape orientation', 1);
    expect(await keywordsOf(await solid(200, 300, [90, 90, 90, 255]))).toHaveProperty('portrait orientation', 1);
    expect(await keywordsOf(await solid(200, 205, [90, 90, 90, 255]))).toHaveProperty('square', 1);
    // EXIF orientation 6 (rotated 90°): stored 300x200, shown 200x300.
    const rotated = await sharp(await solid(300, 200, [90, 90, 90, 255]))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await keywordsOf(rotated)).toHaveProperty('portrait orientation', 1);
  });

  it('marks images with transparent pixels, and only those', async () => {
    const clear = await keywordsOf(await solid(40, 40, [255, 0, 0, 0]));
    expect(clear).toEqual({ square: 1, transparent: 1 });
    const halfClear = await sharp(await solid(40, 40, [0, 0, 0, 0]))
      .composite([{ input: await solid(20, 40, [0, 200, 0, 255]), left: 0, top: 0 }])
      .png()
      .toBuffer();
    expect(await keywordsOf(halfClear)).toHaveProperty('transparent', 1);
    expect(await keywordsOf(readFileSync(path.join(FIXTURE_IMAGES, 'coffee.png')))).not.toHaveProperty('transparent');
  });

  it('says bright, dark, black and white', async () => {
    const white = await keywordsOf(await solid(50, 50, [250, 250, 250, 255]));
    expect(white).toMatchObject({ bright: 1, 'black and white': 1, monochrome: 1 });
    expect(white).not.toHaveProperty('dark');
    const black = await keywordsOf(await solid(50, 50, [5, 5, 5, 255]));
    expect(black).toMatchObject({ dark: 1, 'black and white': 1 });
    expect(black).not.toHaveProperty('bright');
    const camera = await keywordsOf(readFileSync(path.join(FIXTURE_IMAGES, 'camera.png')));
    expect(camera).toMatchObject({ 'black and white': 1, monochrome: 1 });
    expect(camera).not.toHaveProperty('colorful');
  });

  it('tells colourful photos from muted ones', async () => {
    const coffee = await keywordsOf(readFileSync(path.join(FIXTURE_IMAGES, 'coffee.png')));
    expect(coffee.colorful).toBeGreaterThan(0.8);
    expect(coffee).not.toHaveProperty('muted');
    expect(coffee).not.toHaveProperty('black and white');
    const sage = await keywordsOf(await solid(50, 50, [120, 140, 100, 255]));
    expect(sage).toHaveProperty('muted');
    expect(sage).not.toHaveProperty('black and white');
    expect(sage).not.toHaveProperty('colorful');
  });

  it('never calls a colour photo monochrome, however warm its one hue (the tabby cat, a red retina)', async () => {
    for (const photo of ['chelsea.png', 'coffee.png', 'analyzer/retina.jpg']) {
      const words = await keywordsOf(readFileSync(path.join(FIXTURE_IMAGES, photo)));
      expect(words, photo).not.toHaveProperty('monochrome');
      expect(words, photo).not.toHaveProperty('black and white');
    }
  });

  it('calls a toned print monochrome but not black and white', async () => {
    const sepia = await sharp(readFileSync(path.join(FIXTURE_IMAGES, 'grace_hopper.jpg')))
      .recomb([
        [0.393, 0.769, 0.189],
        [0.349, 0.686, 0.168],
        [0.272, 0.534, 0.131],
      ])
      .jpeg()
      .toBuffer();
    const words = await keywordsOf(sepia);
    expect(words.monochrome).toBeGreaterThan(0.9);
    expect(words).not.toHaveProperty('black and white');
    expect(words).not.toHaveProperty('colorful');
  });

  it('does not call a mostly grey colour photo black and white (a pink lighter on a grey desk)', async () => {
    const desk = await keywordsOf(readFileSync(path.join(FIXTURE_IMAGES, 'analyzer/desk.jpg')));
    expect(desk).not.toHaveProperty('black and white');
    expect(desk).not.toHaveProperty('monochrome');
    expect(desk).toHaveProperty('muted');
  });

  it('judges colour by the lit pixels: a starfield is dark, not muted', async () => {
    const stars = await keywordsOf(readFileSync(path.join(FIXTURE_IMAGES, 'hubble_deep_field.jpg')));
    expect(stars).toHaveProperty('dark');
    expect(stars).not.toHaveProperty('muted');
  });
});
