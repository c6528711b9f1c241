import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { explicitScore, NSFW_CLASSES } from '../../../images/moderation/image-moderation';
import { cpuSecondsOf } from '../cpu-time';
import { fixtureImage, imageInputFrom } from '../faces/fixture-image';
import { createNsfwjsClassifier, nsfwGate } from './nsfw-classifier';

const resizedFixture = async (file: string, width: number) =>
  imageInputFrom(
    await sharp((await fixtureImage(file)).bytes)
      .resize(width)
      .jpeg()
      .toBuffer(),
  );

describe('nsfwjs classifier (the real model)', () => {
  const classifier = createNsfwjsClassifier();

  it.each(['grace_hopper.jpg', 'coffee.png', 'astronaut.png'])(
    'finds %s not explicit',
    async (file) => {
      const scores = await classifier.classify(await fixtureImage(file));
      expect(Object.keys(scores).sort()).toEqual([...NSFW_CLASSES]);
      expect(Object.values(scores).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 3);
      expect(scores.Neutral).toBeGreaterThan(0.5);
      expect(explicitScore(scores)).toBeLessThan(0.1);
    },
    60_000,
  );

  it('leaves the event loop free while it classifies', async () => {
    await classifier.classify(await fixtureImage('grace_hopper.jpg')); // the model loads on first use
    // Three images it has not seen: a check it remembers would not run the model.
    const images = await Promise.all([300, 301, 302].map((width) => resizedFixture('grace_hopper.jpg', width)));
    // Where the checks' CPU time went: TensorFlow.js on this thread would take nearly all of it; in the
    // model's own thread this one does about 1%.
    const cpu = await cpuSecondsOf(async () => {
      for (const image of images) await classifier.classify(image);
    });
    expect(cpu.thisThread / cpu.process).toBeLessThan(0.25);
  }, 60_000);

  it('answers a check of an image it has just seen from memory (the analyzer reuses the upload check)', async () => {
    const image = await resizedFixture('chelsea.png', 401);
    const modelRuns = vi.spyOn(nsfwGate(), 'run');
    try {
      const first = await classifier.classify(image);
      expect(modelRuns).toHaveBeenCalledTimes(1);
      const second = await classifier.classify({ ...image, bytes: Buffer.from(image.bytes) });
      expect(second).toEqual(first);
      expect(modelRuns).toHaveBeenCalledTimes(1); // the same bytes again: the model did not run
    } finally {
      modelRuns.mockRestore();
    }
  }, 60_000);
});
