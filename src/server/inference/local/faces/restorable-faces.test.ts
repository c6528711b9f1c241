import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../provider';
import { createLocalProvider } from '../local-provider';
import { decodeRgb } from '../raw-image';
import { fixtureImage, imageInputFrom } from './fixture-image';
import { MIN_FACE_HEIGHT, restorableFaces } from './restorable-faces';

/** Grace Hopper's portrait reduced to 128 px wide: her face is boxed at about 80 px. */
const smallPortrait = async () =>
  imageInputFrom(
    await sharp((await fixtureImage('grace_hopper.jpg')).bytes)
      .resize(128)
      .jpeg()
      .toBuffer(),
  );

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => {
      expect(error).toBeInstanceOf(ProviderError);
      return (error as ProviderError).options.userMessage;
    },
  );

describe('the faces Fix a Face can restore', { timeout: 60_000 }, () => {
  it('are those of a portrait whose face is large enough', async () => {
    const faces = await restorableFaces(await decodeRgb((await fixtureImage('grace_hopper.jpg')).bytes));
    expect(faces).toHaveLength(1);
    expect(faces[0]?.height).toBeGreaterThanOrEqual(MIN_FACE_HEIGHT);
  });

  it('are none in a photo without a face: the user is told so and what to try', async () => {
    const image = await decodeRgb((await fixtureImage('coffee.png')).bytes);
    expect(await refusal(restorableFaces(image))).toBe(
      "We couldn't find a face in this photo. Try a photo where the face is clear and faces the camera.",
    );
  });

  it('are none when the face is too small: its size, the size wanted, and the tool that can help', async () => {
    const message = await refusal(restorableFaces(await decodeRgb((await smallPortrait()).bytes)));
    expect(message).toMatch(
      /^The face in this photo is too small for Fix a Face \(about \d+ px\)\. Try a photo where the face is at least 96 pixels tall, or use Image Upscaler\.$/,
    );
    const height = Number(message?.match(/about (\d+) px/)?.[1]);
    expect(height).toBeGreaterThan(60);
    expect(height).toBeLessThan(MIN_FACE_HEIGHT);
  });

  it('are checked by the local engine before the charge (its precheck), with the same message', async () => {
    const { precheck } = createLocalProvider();
    if (!precheck) throw new Error('the local engine has no precheck');
    const signal = new AbortController().signal;
    const small = { tool: 'fix-a-face', image: await smallPortrait(), scale: 2 } as const;
    expect(await refusal(precheck(small, signal))).toMatch(/too small for Fix a Face/);
    const portrait = { tool: 'fix-a-face', image: await fixtureImage('astronaut.png'), scale: 2 } as const;
    await expect(precheck(portrait, signal)).resolves.toBeUndefined();
    // A tool that foresees nothing passes at once, whatever the image.
    const upscale = { tool: 'image-upscaler', image: await fixtureImage('coffee.png'), scale: 2 } as const;
    await expect(precheck(upscale, signal)).resolves.toBeUndefined();
  });
});
