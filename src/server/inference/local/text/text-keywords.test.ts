import { describe, expect, it } from 'vitest';
import { poster } from '../analyze/drawn-images';
import { cpuSecondsOf } from '../cpu-time';
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
    const [photo, sign] = [await decoded(fixtureImage('hubble_deep_field.jpg')), await decoded(poster('SUMMER SALE'))];
    await readText(photo); // the model loads on first use: not what is measured
    // Where the reading's CPU time went: the networks on this thread (onnxruntime runs a session on
    // the thread that calls it) took 57-66% of it; in their own thread this one does about 10%.
    const cpu = await cpuSecondsOf(async () => {
      await readText(photo);
      await readText(sign);
    });
    expect(cpu.thisThread / cpu.process).toBeLessThan(0.25);
  }, 60_000);
});
