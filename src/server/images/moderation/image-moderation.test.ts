import { describe, expect, it } from 'vitest';
import type { ImageInput } from '../image-types';
import { createImageModeration, type NsfwClassifier, type NsfwScores } from './image-moderation';

const image = (tag: number): ImageInput => ({ bytes: Buffer.from([tag]), mime: 'image/png', width: 1, height: 1 });
const neutral: NsfwScores = { Drawing: 0, Hentai: 0, Neutral: 1, Porn: 0, Sexy: 0 };

/** Answers the scores given per image (by its first byte), counting its calls. */
function fakeClassifier(byImage: Record<number, Partial<NsfwScores>>) {
  const calls: number[] = [];
  const classifier: NsfwClassifier = {
    async classify(input) {
      const tag = input.bytes[0] as number;
      calls.push(tag);
      return { ...neutral, Neutral: 0, ...byImage[tag] };
    },
  };
  return { classifier, calls };
}

describe('image moderation policy', () => {
  it('blocks when Porn and Hentai together reach the threshold', async () => {
    const { classifier } = fakeClassifier({
      1: { Porn: 0.4, Hentai: 0.3, Neutral: 0.3 },
      2: { Porn: 0.69, Neutral: 0.31 },
    });
    const moderation = createImageModeration({ policy: 'block', threshold: 0.7 }, classifier);
    expect(await moderation.check([image(1)])).toEqual({ blocked: true, explicitScore: expect.closeTo(0.7, 6) });
    expect(await moderation.check([image(2)])).toEqual({ blocked: false });
  });

  it('does not count "Sexy" as explicit', async () => {
    const { classifier } = fakeClassifier({ 1: { Sexy: 0.95, Neutral: 0.05 } });
    const moderation = createImageModeration({ policy: 'block', threshold: 0.7 }, classifier);
    expect(await moderation.check([image(1)])).toEqual({ blocked: false });
  });

  it('checks every image of a call and stops at the first explicit one', async () => {
    const { classifier, calls } = fakeClassifier({ 1: { Neutral: 1 }, 2: { Hentai: 0.9 }, 3: { Neutral: 1 } });
    const moderation = createImageModeration({ policy: 'block', threshold: 0.5 }, classifier);
    expect((await moderation.check([image(1), image(2), image(3)])).blocked).toBe(true);
    expect(calls).toEqual([1, 2]);
  });

  it('under policy allow, lets everything through without running the classifier', async () => {
    const { classifier, calls } = fakeClassifier({ 1: { Porn: 1 } });
    const moderation = createImageModeration({ policy: 'allow', threshold: 0.7 }, classifier);
    expect(await moderation.check([image(1)])).toEqual({ blocked: false });
    expect(calls).toEqual([]);
  });

  it('has nothing to check in a call without images', async () => {
    const { classifier, calls } = fakeClassifier({});
    const moderation = createImageModeration({ policy: 'block', threshold: 0.7 }, classifier);
    expect(await moderation.check([])).toEqual({ blocked: false });
    expect(calls).toEqual([]);
  });
});
