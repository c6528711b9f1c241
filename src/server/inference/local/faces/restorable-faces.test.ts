import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ProviderError } from '../../provider';
import { decodeRgb } from '../raw-image';
import { fixtureImage, imageInputFrom } from './fixture-image';
import { fixAFacePrecheck, MIN_FACE_HEIGHT, restorableFaces } from './restorable-faces';

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

  it("are checked by the engine's precheck (before the charge), with the same message", async () => {
    const signal = new AbortController().signal;
    expect(await refusal(fixAFacePrecheck({ image: await smallPortrait() }, signal))).toMatch(
      /too small for Fix a Face/,
    );
    await expect(fixAFacePrecheck({ image: await fixtureImage('astronaut.png') }, signal)).resolves.toBeUndefined();
  });
});
