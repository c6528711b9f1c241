import { describe, expect, it } from 'vitest';
import { fixtureImage } from '../../inference/local/faces/fixture-image';
import { explicitScore, NSFW_CLASSES } from './image-moderation';
import { createNsfwjsClassifier } from './nsfw-classifier';

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
});
