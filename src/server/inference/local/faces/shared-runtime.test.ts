// Human and the ESRGAN upscaler share one TensorFlow.js engine and wasm backend in the server's
// process, and the NSFW check runs its own in a thread: loading and running Human must not change
// what the others compute, nor the reverse.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createNsfwjsClassifier } from '../nsfw/nsfw-classifier';
import { decodeRgb, type RawImage } from '../raw-image';
import { superResolve } from '../upscale/super-resolve';
import { detectFaces } from './detect-faces';
import { fixtureImage } from './fixture-image';
import { humanLoaded } from './human-runtime';

async function crop(image: RawImage, size: number): Promise<RawImage> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract({ left: 200, top: 80, width: size, height: size })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

describe('Human, the upscaler and the NSFW check in one process', { timeout: 60_000 }, () => {
  it('give the same results before and after each other ran', async () => {
    const astronaut = await decodeRgb((await fixtureImage('astronaut.png')).bytes);
    const patch = await crop(astronaut, 48);
    const coffee = await fixtureImage('coffee.png');
    const nsfw = createNsfwjsClassifier();

    expect(humanLoaded()).toBe(false);
    const upscaledBefore = await superResolve(patch, 2);
    const moderationBefore = await nsfw.classify(coffee);
    const facesFirst = await detectFaces(astronaut);
    expect(humanLoaded()).toBe(true);
    const upscaledAfter = await superResolve(patch, 2);
    const moderationAfter = await nsfw.classify(coffee);
    const facesAgain = await detectFaces(astronaut);

    expect(facesFirst).toHaveLength(1);
    expect(facesAgain).toEqual(facesFirst);
    expect([upscaledAfter.width, upscaledAfter.height]).toEqual([96, 96]);
    expect(upscaledAfter.data.equals(upscaledBefore.data)).toBe(true);
    expect(moderationAfter).toEqual(moderationBefore);
    expect(moderationAfter.Neutral).toBeGreaterThan(0.5);
  });
});
