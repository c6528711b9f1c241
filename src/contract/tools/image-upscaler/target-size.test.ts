// The Image Upscaler's size arithmetic (issue 58 item 4, decisions 081 and 084): the print sizes in
// pixels, the target the fields ask for, the scale chosen (none for a photo that has the pixels), the
// photo made smaller for a scale's input limit, the exact result and the refusals naming the largest.
import { describe, expect, it } from 'vitest';
import { printMeasures, printPixels } from '../../print-sizes';
import { resultSizeFor } from '../../result-size';
import { planUpscale, TARGET_MESSAGES, upscaleTargetOf } from './target-size';

describe('print sizes', () => {
  it('are the pixels print shops state', () => {
    expect(printPixels('a4', 300)).toEqual({ short: 2480, long: 3508 });
    expect(printPixels('a3', 300)).toEqual({ short: 3508, long: 4961 });
    expect(printPixels('letter', 300)).toEqual({ short: 2550, long: 3300 });
    expect(printPixels('4x6', 300)).toEqual({ short: 1200, long: 1800 });
    expect(printPixels('5x7', 600)).toEqual({ short: 3000, long: 4200 });
    expect(printPixels('8x10', 72)).toEqual({ short: 576, long: 720 });
    expect(printPixels('13x18cm', 300)).toEqual({ short: 1535, long: 2126 });
  });

  it('are measured in cm and inches in the orientation asked', () => {
    expect(printMeasures('a4', false)).toBe('21.0 x 29.7 cm (8.27 x 11.69 in)');
    expect(printMeasures('4x6', true)).toBe('15.2 x 10.2 cm (6 x 4 in)');
  });
});

describe('the target the fields ask for', () => {
  it('is exactly one of scale, targetWidth, targetHeight and printSize; dpi only with a print size, 300 by default', () => {
    expect(upscaleTargetOf({ scale: 4 })).toEqual({ target: { kind: 'scale', scale: 4 } });
    expect(upscaleTargetOf({ targetWidth: 3000 })).toEqual({ target: { kind: 'width', width: 3000 } });
    expect(upscaleTargetOf({ targetHeight: 2000 })).toEqual({ target: { kind: 'height', height: 2000 } });
    expect(upscaleTargetOf({ printSize: 'a4' })).toEqual({ target: { kind: 'print', printSize: 'a4', dpi: 300 } });
    expect(upscaleTargetOf({ printSize: '5x7', dpi: 600 })).toEqual({
      target: { kind: 'print', printSize: '5x7', dpi: 600 },
    });
    expect(upscaleTargetOf({})).toEqual({ field: 'scale', message: TARGET_MESSAGES.none });
    expect(upscaleTargetOf({ scale: 2, printSize: 'a4' })).toEqual({
      field: 'printSize',
      message: 'Choose one of scale, targetWidth, targetHeight and printSize, not scale and printSize together.',
    });
    expect(upscaleTargetOf({ targetWidth: 10, targetHeight: 10 })).toMatchObject({ field: 'targetHeight' });
    expect(upscaleTargetOf({ targetWidth: 3000, dpi: 300 })).toEqual({
      field: 'dpi',
      message: TARGET_MESSAGES.dpiWithoutPrint,
    });
  });
});

describe('an upscale to a size', () => {
  it('a 3 MP phone photo to A4 at 300 DPI: 2x, then exactly 2480 x 3508 in its own orientation, the overflow cropped', () => {
    expect(planUpscale({ width: 1536, height: 2048 }, { kind: 'print', printSize: 'a4', dpi: 300 })).toEqual({
      ok: true,
      plan: {
        scale: 2,
        modelInput: null,
        resultSize: { short: 2480, long: 3508 },
        result: { width: 2480, height: 3508 },
        factor: 3508 / 2048,
        cropped: 'sides',
      },
    });
    const landscape = planUpscale({ width: 2048, height: 1536 }, { kind: 'print', printSize: 'a4', dpi: 300 });
    expect(landscape).toMatchObject({
      ok: true,
      plan: { result: { width: 3508, height: 2480 }, cropped: 'top and bottom' },
    });
  });

  it('a width or height: the smallest scale that reaches it, the other side from the aspect', () => {
    expect(planUpscale({ width: 1000, height: 750 }, { kind: 'width', width: 1500 })).toMatchObject({
      ok: true,
      plan: { scale: 2, result: { width: 1500, height: 1125 } },
    });
    expect(planUpscale({ width: 1000, height: 750 }, { kind: 'width', width: 3000 })).toMatchObject({
      ok: true,
      plan: { scale: 4, result: { width: 3000, height: 2250 } },
    });
    expect(planUpscale({ width: 400, height: 300 }, { kind: 'height', height: 1700 })).toMatchObject({
      ok: true,
      plan: { scale: 6, result: { width: 2267, height: 1700 } },
    });
  });

  it('a 12 MP phone photo to A4 at 300 DPI: no model, resized down to exactly the print', () => {
    expect(planUpscale({ width: 4000, height: 3000 }, { kind: 'print', printSize: 'a4', dpi: 300 })).toEqual({
      ok: true,
      plan: {
        scale: null,
        modelInput: null,
        resultSize: { short: 2480, long: 3508 },
        result: { width: 3508, height: 2480 },
        factor: 3508 / 4000,
        cropped: 'top and bottom',
      },
    });
    // A size it has exactly, or a height under its own: resized (or kept), no model either.
    expect(planUpscale({ width: 2000, height: 1500 }, { kind: 'height', height: 1500 })).toMatchObject({
      ok: true,
      plan: { scale: null, result: { width: 2000, height: 1500 } },
    });
    expect(planUpscale({ width: 2000, height: 1500 }, { kind: 'height', height: 1000 })).toMatchObject({
      ok: true,
      plan: { scale: null, result: { width: 1333, height: 1000 } },
    });
  });

  it('a photo past the scale’s input limit is made the size that scale turns into just the result', () => {
    // 8 MP to US Letter at 300 DPI needs 1.04x: 2x of the photo reduced to half the print (2048 x 2048 is 2x's limit).
    expect(planUpscale({ width: 2448, height: 3264 }, { kind: 'print', printSize: 'letter', dpi: 300 })).toEqual({
      ok: true,
      plan: {
        scale: 2,
        modelInput: { size: { width: 1275, height: 1650 }, resize: { long: 1650, short: 1275 } },
        resultSize: { short: 2550, long: 3300 },
        result: { width: 2550, height: 3300 },
        factor: 2550 / 2448,
        cropped: 'top and bottom',
      },
    });
    // 4.5x needs 6x, whose limit (680 x 680) 1000 x 750 passes: a sixth of 4500 x 3375, rounded up.
    expect(planUpscale({ width: 1000, height: 750 }, { kind: 'width', width: 4500 })).toMatchObject({
      ok: true,
      plan: { scale: 6, modelInput: { size: { width: 750, height: 563 } }, result: { width: 4500, height: 3375 } },
    });
    // A sixth of 4096 x 4096, rounded up (683 x 683), would pass 6x's 680 x 680: brought within it.
    expect(planUpscale({ width: 700, height: 700 }, { kind: 'width', width: 4096 })).toMatchObject({
      ok: true,
      plan: { scale: 6, modelInput: { size: { width: 680, height: 680 } }, result: { width: 4096, height: 4096 } },
    });
    // Half of 16383 px, rounded up, is a side past the 8191 px 2x takes: brought within it.
    expect(planUpscale({ width: 12000, height: 700 }, { kind: 'width', width: 16383 })).toMatchObject({
      ok: true,
      plan: { scale: 2, modelInput: { size: { width: 8191, height: 477 } }, result: { width: 16383, height: 956 } },
    });
    // Within the limit the photo goes as it is.
    expect(planUpscale({ width: 2048, height: 1536 }, { kind: 'width', width: 3000 })).toMatchObject({
      ok: true,
      plan: { scale: 2, modelInput: null },
    });
  });

  it('refuses what it cannot make, naming the largest it can', () => {
    const refusal = (outcome: ReturnType<typeof planUpscale>) => (outcome.ok ? null : outcome.message);
    // More than 6x.
    expect(refusal(planUpscale({ width: 300, height: 400 }, { kind: 'print', printSize: 'a4', dpi: 300 }))).toBe(
      'This image is 300 x 400 px: A4 at 300 DPI (2480 x 3508 px) needs 8.8x, more than the 6x the upscaler makes. The most it makes of A4 is 205 DPI.',
    );
    // More than 16.8 megapixels, whether it needs an upscale (3 MP) or has the pixels (12 MP).
    expect(refusal(planUpscale({ width: 1500, height: 2000 }, { kind: 'print', printSize: 'a3', dpi: 300 }))).toBe(
      'This image is 1500 x 2000 px: A3 at 300 DPI (3508 x 4961 px) is 17.4 megapixels, more than the 16.8 megapixels the upscaler makes. The most it makes of A3 is 294 DPI.',
    );
    expect(refusal(planUpscale({ width: 4000, height: 3000 }, { kind: 'print', printSize: 'a3', dpi: 300 }))).toBe(
      'This image is 4000 x 3000 px: A3 at 300 DPI (4961 x 3508 px) is 17.4 megapixels, more than the 16.8 megapixels the upscaler makes. The most it makes of A3 is 294 DPI.',
    );
    // Just past the limit: two decimals, so it does not read as the limit itself.
    expect(refusal(planUpscale({ width: 4000, height: 3000 }, { kind: 'width', width: 4732 }))).toBe(
      'This image is 4000 x 3000 px: a width of 4732 px is 16.79 megapixels, more than the 16.8 megapixels the upscaler makes. The widest it can be made is 4729 px.',
    );
    // A side longer than webp encodes.
    expect(refusal(planUpscale({ width: 10000, height: 500 }, { kind: 'height', height: 820 }))).toBe(
      'This image is 10000 x 500 px: a height of 820 px is 16400 x 820 px, a side longer than the 16383 px the upscaler makes. The tallest it can be made is 819 px.',
    );
  });

  it('the finishing makes the exact size from the output it is given', () => {
    expect(resultSizeFor({ width: 3072, height: 4096 }, { short: 2480, long: 3508 })).toEqual({
      width: 2480,
      height: 3508,
    });
    expect(resultSizeFor({ width: 4096, height: 4096 }, { short: 2480, long: 3508 })).toEqual({
      width: 2480,
      height: 3508,
    });
    expect(resultSizeFor({ width: 4000, height: 3000 }, { width: 3001 })).toEqual({ width: 3001, height: 2251 });
    expect(resultSizeFor({ width: 4000, height: 3000 }, { height: 1000 })).toEqual({ width: 1333, height: 1000 });
  });
});
