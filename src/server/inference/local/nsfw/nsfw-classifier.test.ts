import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { explicitScore, NSFW_CLASSES } from '../../../images/moderation/image-moderation';
import { fixtureImage, imageInputFrom } from '../faces/fixture-image';
import { createNsfwjsClassifier } from './nsfw-classifier';

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
    // How much of the time the event loop was running code rather than waiting (Node's event loop
    // utilization): a model run on this thread would keep it near 1. Unlike a timer's longest gap, it
    // does not count the moments the scheduler gives the cores to other processes while the loop waits.
    const before = performance.eventLoopUtilization();
    for (const image of images) await classifier.classify(image);
    const { utilization } = performance.eventLoopUtilization(before);
    expect(utilization).toBeLessThan(0.5);
  }, 60_000);

  it('answers a check of an image it has just seen from memory (the analyzer reuses the upload check)', async () => {
    await classifier.classify(await fixtureImage('coffee.png')); // the model loads on first use
    const image = await resizedFixture('chelsea.png', 401);
    const started = performance.now();
    const first = await classifier.classify(image);
    const modelMs = performance.now() - started;
    const again = performance.now();
    const second = await classifier.classify({ ...image, bytes: Buffer.from(image.bytes) });
    expect(second).toEqual(first);
    expect(performance.now() - again).toBeLessThan(modelMs / 5);
  }, 60_000);
});
