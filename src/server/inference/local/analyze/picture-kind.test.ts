import { describe, expect, it } from 'vitest';
import type { NsfwScores } from '../../../images/moderation/image-moderation';
import { fixtureImage } from '../faces/fixture-image';
import { loadAnalysisPixels } from './analysis-pixels';
import { analyzeImage } from './analyze-image';
import { FLAT_DRAWINGS, flatDrawing } from './drawn-images';
import { pictureKind } from './picture-kind';

const nothingElse = { vision: async () => [], text: async () => [] };
const kindOf = async (image: Awaited<ReturnType<typeof fixtureImage>>) =>
  (await analyzeImage(image, undefined, nothingElse)).keywords
    .map((k) => k.keyword)
    .filter((k) => k === 'photo' || k === 'illustration');

describe('photo or illustration (nsfwjs classes and flat areas)', () => {
  it.each(Object.keys(FLAT_DRAWINGS))(
    'calls the flat drawing "%s" an illustration, PNG or JPEG',
    async (name) => {
      expect(await kindOf(await flatDrawing(name))).toEqual(['illustration']);
      expect(await kindOf(await flatDrawing(name, 'jpeg'))).toEqual(['illustration']);
    },
    60_000,
  );

  it.each(['grace_hopper.jpg', 'coffee.png', 'chelsea.png', 'astronaut.png'])(
    'calls %s a photo',
    async (file) => {
      expect(await kindOf(await fixtureImage(file))).toEqual(['photo']);
    },
    60_000,
  );

  it('says neither when nsfwjs sees a drawing in a photo (the rocket: 0.79 "Drawing")', async () => {
    expect(await kindOf(await fixtureImage('rocket.jpg'))).toEqual([]);
  }, 60_000);

  it('trusts nsfwjs alone when it is sure of a drawing', async () => {
    const pixels = await loadAnalysisPixels((await fixtureImage('coffee.png')).bytes);
    const sure: NsfwScores = { Drawing: 0.7, Hentai: 0.25, Neutral: 0.05, Porn: 0, Sexy: 0 };
    expect(pictureKind(pixels, sure)).toEqual([{ keyword: 'illustration', score: 0.95 }]);
  });
});
