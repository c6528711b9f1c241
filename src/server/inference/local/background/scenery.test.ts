// Backgrounds from descriptions: what a user asks for is what they see, each image its own variation.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { readScene, sceneryBackground } from './scenery';

/** The rendered background's mean colour over its whole area, or over its top `share` of rows. */
async function meanColour(description: string, variant = 0, share = 1): Promise<{ r: number; g: number; b: number }> {
  const [width, height] = [160, 200];
  const { channels } = await sharp(sceneryBackground(description, variant, width, height))
    .extract({ left: 0, top: 0, width, height: Math.round(height * share) })
    .stats();
  const [r, g, b] = channels.map((c) => c.mean) as [number, number, number];
  return { r, g, b };
}

async function pixels(description: string, variant: number): Promise<Buffer> {
  return sharp(sceneryBackground(description, variant, 128, 128))
    .removeAlpha()
    .raw()
    .toBuffer();
}

const meanDifference = (a: Buffer, b: Buffer) =>
  a.reduce((sum, v, i) => sum + Math.abs(v - (b[i] as number)), 0) / a.length;

describe('readScene', () => {
  it('finds the scene, the time of day and the named colours', () => {
    expect(readScene('Sunset on the beach')).toEqual({ kind: 'beach', time: 'sunset', colours: [] });
    expect(readScene('a misty green forest at night')).toEqual({ kind: 'forest', time: 'night', colours: ['#3f9a4a'] });
    expect(readScene('Red and GOLD studio backdrop')).toEqual({
      kind: 'studio',
      time: 'day',
      colours: ['#d63a3a', '#d4a62a'],
    });
    expect(readScene('snowy mountains').kind).toBe('snow');
    expect(readScene('downtown skyline').kind).toBe('city');
    expect(readScene('a starry sky').time).toBe('night');
  });

  it('falls back to a plain gradient when no word is known', () => {
    expect(readScene('something lovely')).toEqual({ kind: 'plain', time: 'day', colours: [] });
    expect(readScene('')).toEqual({ kind: 'plain', time: 'day', colours: [] });
  });
});

describe('sceneryBackground', () => {
  it('draws the colours and scenes the description names', async () => {
    const red = await meanColour('a red studio');
    expect(red.r).toBeGreaterThan(red.g + 40);
    const forest = await meanColour('deep forest');
    expect(forest.g).toBeGreaterThan(forest.r + 15);
    const night = await meanColour('city at night');
    expect((night.r + night.g + night.b) / 3).toBeLessThan(70);
    const daySky = await meanColour('beach on a sunny day', 0, 0.3);
    expect(daySky.b).toBeGreaterThan(daySky.r + 40);
    const sunsetSky = await meanColour('sunset at the beach', 0, 0.3);
    // Warmer: more red against blue than the day's sky.
    expect(sunsetSky.r - sunsetSky.b).toBeGreaterThan(daySky.r - daySky.b + 40);
  });

  it('is the same for the same request and differs from one output to the next', async () => {
    for (const description of ['beach', 'studio', 'forest', 'city', 'mountains', 'snow', 'sky', 'anything']) {
      const [first, again, second] = await Promise.all([
        pixels(description, 0),
        pixels(description, 0),
        pixels(description, 1),
      ]);
      expect(meanDifference(first, again)).toBe(0);
      expect(meanDifference(first, second)).toBeGreaterThan(1);
    }
  });

  it('draws at the size asked', async () => {
    const meta = await sharp(sceneryBackground('beach', 2, 874, 1024)).metadata();
    expect([meta.width, meta.height]).toEqual([874, 1024]);
  });

  it('renders descriptions with markup characters as plain words', async () => {
    const svg = sceneryBackground('<script>"blue" & \'red\'</script> studio', 0, 64, 64).toString();
    expect(svg).not.toContain('<script>');
    const meta = await sharp(Buffer.from(svg)).metadata();
    expect(meta.width).toBe(64);
  });
});
