import { describe, expect, it } from 'vitest';
import { poster } from '../analyze/drawn-images';
import { fixtureImage } from '../faces/fixture-image';
import { decodeUpright } from '../raw-image';
import { readText } from './read-text';
import { textKeywords, wordsAsKeywords } from './text-keywords';

const decoded = async (image: Promise<{ bytes: Buffer }>) => decodeUpright((await image).bytes, 1024);

describe('text in the image (PP-OCRv4)', () => {
  it('reads a rendered "SUMMER SALE" poster, each word a keyword', async () => {
    const keywords = await textKeywords(await decoded(poster('SUMMER SALE')));
    expect(keywords.map((k) => k.keyword).sort()).toEqual(['sale', 'summer']);
    for (const { score } of keywords) expect(score).toBeGreaterThanOrEqual(0.9);
  }, 60_000);

  it('reads smaller lettering and numbers too', async () => {
    const keywords = await textKeywords(await decoded(poster('Open 24 hours', 48, 'jpeg')));
    expect(keywords.map((k) => k.keyword)).toEqual(expect.arrayContaining(['open', '24', 'hours']));
  }, 60_000);

  it.each(['rocket.jpg', 'grace_hopper.jpg', 'chelsea.png'])(
    'finds no words in %s, a photo without text',
    async (file) => {
      expect(await textKeywords(await decoded(fixtureImage(file)))).toEqual([]);
    },
    60_000,
  );

  it('keeps only confident Latin words and numbers of two characters or more', () => {
    expect(
      wordsAsKeywords([
        { text: 'SUMMER SALE!', score: 0.97 },
        { text: '米*', score: 0.99 },
        { text: 'a 50% (2026)', score: 0.95 },
        { text: 'Blurry guess', score: 0.79 },
      ]),
    ).toEqual([
      { keyword: 'summer', score: 0.97 },
      { keyword: 'sale', score: 0.97 },
      { keyword: '50', score: 0.95 },
      { keyword: '2026', score: 0.95 },
    ]);
  });

  it('does nothing once cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(readText(await decoded(poster('SALE')), controller.signal)).rejects.toThrow(/aborted/);
  });

  it('leaves the event loop free while it reads (the networks run in their own thread)', async () => {
    const image = await decoded(fixtureImage('hubble_deep_field.jpg'));
    await readText(image); // the model loads on first use: not what is measured
    // A timer that should fire every 5 ms: the longest gap between its ticks is how long the
    // server could not answer anything else. Compared with the whole reading rather than a fixed
    // bound: on this shared 2-core machine the scheduler alone makes gaps of 50-190 ms, while a
    // network run on the main thread would hold it for most of a reading.
    const started = performance.now();
    let last = started;
    let longestGap = 0;
    const probe = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 5);
    try {
      await readText(image);
      await readText(await decoded(poster('SUMMER SALE')));
    } finally {
      clearInterval(probe);
    }
    expect(longestGap).toBeLessThan((performance.now() - started) / 5);
  }, 60_000);
});
