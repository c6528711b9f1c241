// The tool modules and the local engines (inference/local/): which tools the local provider serves
// here, and that each module hands its engine the tool's input in the engine's own terms.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { TOOL_IDS } from '../../contract/tools';
import { fixtureImage, imageInputFrom } from '../inference/local/faces/fixture-image';
import { createLocalProvider } from '../inference/local/local-provider';
import { ProviderError } from '../inference/provider';
import { SERVER_TOOLS, type ToolInput } from './registry';

const local = createLocalProvider(SERVER_TOOLS);
const signal = () => new AbortController().signal;
const run = (input: ToolInput) => local.run(input, signal());

/** The user's message of a refusal. */
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

/** 8200 x 8: past the largest side webp can hold at 2x, refused before any model runs. */
const strip = async () =>
  imageInputFrom(
    await sharp({ create: { width: 8200, height: 8, channels: 3, background: '#808080' } })
      .png()
      .toBuffer(),
  );

describe('the local engine, through the tool modules', { timeout: 60_000 }, () => {
  it('serves the six tools that have an engine here; the other four fall back to the demo', () => {
    expect(TOOL_IDS.filter((tool) => local.supports(tool))).toEqual([
      'background-remover',
      'creative-upscaler',
      'fix-a-face',
      'background-swap',
      'image-upscaler',
      'image-analyzer',
    ]);
  });

  it("hands the Image Upscaler its scale, and the Creative Upscaler the tool's own failure message", async () => {
    const image = await strip();
    expect(await refusal(run({ tool: 'image-upscaler', image, scale: 2 }))).toBe(
      'This image is too large for 2x: please use one of at most 2048 x 2048 pixels and a side of at most 8191 pixels.',
    );
    expect(await refusal(run({ tool: 'creative-upscaler', image, scale: 2 }))).toBe(
      'Creative upscale failed. Please use a smaller image size.',
    );
  });

  it('hands the Background Swap the number of images asked for', async () => {
    const image = await fixtureImage('coffee.png');
    await expect(run({ tool: 'background-swap', image, prompt: 'a beach', numOutputs: 5 })).rejects.toThrow(/1 to 4/);
  });

  it('runs Fix a Face, which refuses a photo without a face with the message the user sees', async () => {
    const image = await fixtureImage('coffee.png');
    expect(await refusal(run({ tool: 'fix-a-face', image, scale: 2 }))).toBe(
      "We couldn't find a face in this photo. Try a photo where the face is clear and faces the camera.",
    );
  });

  it("checks Fix a Face's input before the charge, and no other tool's", async () => {
    const { precheck } = local;
    if (!precheck) throw new Error('the local engine has no precheck');
    const small = await imageInputFrom(
      await sharp((await fixtureImage('grace_hopper.jpg')).bytes)
        .resize(128)
        .jpeg()
        .toBuffer(),
    );
    const fixAFace = (image: typeof small): ToolInput => ({ tool: 'fix-a-face', image, scale: 2 });
    expect(await refusal(precheck(fixAFace(small), signal()))).toMatch(/too small for Fix a Face/);
    await expect(precheck(fixAFace(await fixtureImage('astronaut.png')), signal())).resolves.toBeUndefined();
    // A tool that foresees nothing passes at once, whatever the image.
    const upscale: ToolInput = { tool: 'image-upscaler', image: await fixtureImage('coffee.png'), scale: 2 };
    await expect(precheck(upscale, signal())).resolves.toBeUndefined();
  });

  it("refuses to run one tool's input with another tool's engine", async () => {
    const analyzer = SERVER_TOOLS.find((tool) => tool.id === 'image-analyzer');
    const engine = await analyzer?.local?.({ backgroundModel: 'medium' });
    if (!engine) throw new Error('the Image Analyzer has no local engine');
    await expect(engine({ tool: 'colorizer', image: await strip() }, signal())).rejects.toThrow(
      'the image-analyzer module was given an input of colorizer',
    );
  });
});
