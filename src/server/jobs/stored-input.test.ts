import { describe, expect, it } from 'vitest';
import type { ImageInput } from '../images/image-types';
import type { ToolInput } from '../tools/registry';
import { fromStoredInput, hasInputFiles, imagesAsked, toStoredInput } from './stored-input';

const image: ImageInput = { bytes: Buffer.from([1, 2, 3]), mime: 'image/png', width: 40, height: 30 };

describe('a job’s stored input', () => {
  it('keeps every field and refers to the image by its input file, without its bytes', () => {
    const input: ToolInput = { tool: 'background-swap', prompt: 'beach', image, numOutputs: 3 };
    const { stored, images } = toStoredInput(input);
    expect(images).toEqual([image]);
    expect(JSON.stringify(stored)).not.toContain('"bytes":{');
    expect(stored.input.image).toEqual({ inputFile: 0, mime: 'image/png', width: 40, height: 30, bytes: 3 });
    // Through the database as JSON and back.
    expect(fromStoredInput('background-swap', JSON.parse(JSON.stringify(stored)), images)).toEqual(input);
    expect(imagesAsked(stored)).toBe(3);
    expect(hasInputFiles(JSON.parse(JSON.stringify(stored)))).toBe(true);
  });

  it('says a prompt-only job has no input files to read back', () => {
    const { stored } = toStoredInput({ tool: 'text-to-pic', prompt: 'beach', numOutputs: 1 } as ToolInput);
    expect(hasInputFiles(JSON.parse(JSON.stringify(stored)))).toBe(false);
  });

  it('refuses to run without the image it refers to', () => {
    const { stored } = toStoredInput({ tool: 'colorizer', image });
    expect(() => fromStoredInput('colorizer', stored, [])).toThrow(/input file 0/);
  });

  it('still reads a job queued by the previous release (a summary and one input file)', () => {
    const summary = { prompt: 'beach', numOutputs: 2, image: { mime: 'image/png' }, imageFiles: 1 };
    expect(fromStoredInput('background-swap', summary, [image])).toEqual({
      tool: 'background-swap',
      prompt: 'beach',
      numOutputs: 2,
      image,
    });
    expect(imagesAsked(summary)).toBe(2);
    expect(imagesAsked({ prompt: 'x' })).toBe(1);
    // Its files are not named in it: read them back.
    expect(hasInputFiles(summary)).toBe(true);
  });
});
