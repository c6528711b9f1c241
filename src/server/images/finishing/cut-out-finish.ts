// Background Remover's finishing (issue 41): what a shop listing needs without a trip to an editor.
// A crop to the subject with a margin, a square of N px with the subject centred, a soft contact
// shadow under it, and a background colour; before them, the soft edge's colours cleaned (issue 58,
// edge-colours.ts). Or, by its mode, the photo with its background blurred, or the mask alone. All
// sharp operations (libvips' threads), no pixel loop here: the worker shares its thread with HTTP in
// a one-process server (clean edges' loop has a thread of its own).
import sharp, { type Sharp } from 'sharp';
import { BLUR_STRENGTH, CUT_OUT_MARGIN, type CutOutFinish } from '../../../contract/output-files';
import { withCleanEdges } from './edge-colours';

type Rgba = { data: Buffer; width: number; height: number };
type Box = { left: number; top: number; width: number; height: number };

const TRANSPARENT = { r: 0, g: 0, b: 0, alpha: 0 };
/** Alpha at or under this is background when finding the subject (ISNet leaves a faint haze). */
const SUBJECT_ALPHA = 24;

const rgbaOf = async (pipeline: Sharp): Promise<Rgba> => {
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
};
const fromRgba = (image: Rgba) => sharp(image.data, { raw: { width: image.width, height: image.height, channels: 4 } });

/** The box of the subject (alpha over SUBJECT_ALPHA); null when the picture is empty. */
async function subjectBox(image: Rgba): Promise<Box | null> {
  // sharp trims at the start of a pipeline: the alpha channel goes in as an image of its own.
  const alpha = await fromRgba(image).extractChannel(3).toColourspace('b-w').png({ compressionLevel: 0 }).toBuffer();
  const { channels } = await sharp(alpha).stats();
  if ((channels[0]?.max ?? 0) <= SUBJECT_ALPHA) return null;
  try {
    const { info } = await sharp(alpha)
      .trim({ background: '#000000', threshold: SUBJECT_ALPHA })
      .toBuffer({ resolveWithObject: true });
    return {
      left: -(info.trimOffsetLeft ?? 0),
      top: -(info.trimOffsetTop ?? 0),
      width: info.width,
      height: info.height,
    };
  } catch {
    return { left: 0, top: 0, width: image.width, height: image.height };
  }
}

/** The subject with `marginPercent` of its longer side around it (transparent where that passes the edge). */
async function croppedToSubject(image: Rgba, box: Box, marginPercent: number): Promise<Rgba> {
  const margin = Math.round((Math.max(box.width, box.height) * marginPercent) / 100);
  const want = {
    left: box.left - margin,
    top: box.top - margin,
    right: box.left + box.width + margin,
    bottom: box.top + box.height + margin,
  };
  const inside = {
    left: Math.max(0, want.left),
    top: Math.max(0, want.top),
    width: Math.min(image.width, want.right) - Math.max(0, want.left),
    height: Math.min(image.height, want.bottom) - Math.max(0, want.top),
  };
  return rgbaOf(
    fromRgba(image)
      .extract(inside)
      .extend({
        left: inside.left - want.left,
        top: inside.top - want.top,
        right: want.right - (inside.left + inside.width),
        bottom: want.bottom - (inside.top + inside.height),
        background: TRANSPARENT,
      }),
  );
}

/** A soft elliptical shadow where the subject meets the ground, drawn under it. */
async function withContactShadow(image: Rgba, box: Box): Promise<Rgba> {
  const rx = Math.max(4, box.width * 0.42);
  const ry = Math.max(3, box.height * 0.035);
  const cx = box.left + box.width / 2;
  const cy = box.top + box.height - ry * 0.4;
  const blur = Math.max(1.5, ry * 0.9);
  const svg = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${image.width}" height="${image.height}">` +
      `<defs><filter id="s" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="${blur.toFixed(1)}"/></filter></defs>` +
      `<ellipse cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" rx="${rx.toFixed(1)}" ry="${ry.toFixed(1)}" fill="#000" fill-opacity="0.38" filter="url(#s)"/></svg>`,
  );
  const subject = await fromRgba(image).png({ compressionLevel: 0 }).toBuffer();
  return rgbaOf(sharp(svg).composite([{ input: subject }]));
}

/** The cut-out's pixels, their soft edge's colours cleaned when asked. */
async function cutOutPixels(bytes: Buffer, finish: CutOutFinish): Promise<Rgba> {
  const image = await rgbaOf(sharp(bytes));
  if (!finish.cleanEdges) return image;
  const { data } = await withCleanEdges(image);
  return { ...image, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) };
}

/**
 * The cut-out (any format sharp reads) finished as its mode asks: a pipeline with alpha, or
 * flattened on `background`; mode blur an opaque photo, mode mask one grey channel.
 */
export async function finishCutOut(bytes: Buffer, finish: CutOutFinish): Promise<Sharp> {
  if (finish.mode === 'mask') return maskOf(bytes);
  if (finish.mode === 'blur') return blurredBehind(await cutOutPixels(bytes, finish), finish.blurStrength);
  const sized = finish.size !== undefined;
  if (finish.crop === undefined && !sized && !finish.shadow) {
    return flattened(finish.cleanEdges ? fromRgba(await cutOutPixels(bytes, finish)) : sharp(bytes), finish.background);
  }
  let image = await cutOutPixels(bytes, finish);
  let box = await subjectBox(image);
  if (box && (finish.crop !== undefined || sized)) {
    image = await croppedToSubject(image, box, finish.crop ?? CUT_OUT_MARGIN.whenSized);
    box = await subjectBox(image);
  }
  if (sized) {
    const size = finish.size as number;
    image = await rgbaOf(
      fromRgba(image).resize(size, size, { fit: 'contain', background: TRANSPARENT, kernel: 'lanczos3' }),
    );
    box = await subjectBox(image);
  }
  if (finish.shadow && box) image = await withContactShadow(image, box);
  return flattened(fromRgba(image), finish.background);
}

const flattened = (pipeline: Sharp, background: string | undefined) =>
  background && background !== 'transparent' ? pipeline.flatten({ background }) : pipeline;

/** The matte alone: the cut-out's alpha as one grey channel (white subject on black). */
const maskOf = (bytes: Buffer): Sharp => sharp(bytes).ensureAlpha().extractChannel(3).toColourspace('b-w');

/**
 * The blur's Gaussian sigma, in pixels: `strength` (1-100) of 4% of the longer side at most, so a
 * strength looks the same on a phone photo and on its thumbnail.
 */
export const blurSigma = (strength: number, width: number, height: number) =>
  Math.max(0.5, (Math.max(width, height) * 0.04 * strength) / BLUR_STRENGTH.max);

/** The blur is made at a size where its sigma is at most this (a wide kernel at full size costs seconds; a blurred image loses nothing by it). */
const WORKING_SIGMA = 8;

/**
 * The photo (the cut-out's colours; a cut-out keeps the photo's pixels under its transparency) with
 * its background blurred behind the sharp subject. The background is blurred without the subject
 * (alpha-weighted: sharp premultiplies alpha for a resize and a blur), so the subject's colours do
 * not spread into it as a halo; where the subject covers all around, the plain blur fills in.
 */
async function blurredBehind(image: Rgba, strength: number = BLUR_STRENGTH.default): Promise<Sharp> {
  const sigma = blurSigma(strength, image.width, image.height);
  const shrink = Math.max(1, sigma / WORKING_SIGMA);
  const small = {
    width: Math.max(1, Math.round(image.width / shrink)),
    height: Math.max(1, Math.round(image.height / shrink)),
  };
  const blurred = async (pipeline: Sharp) =>
    pipeline
      .resize(small.width, small.height, { fit: 'fill', kernel: 'linear' })
      .blur(Math.max(0.3, sigma / shrink))
      .png({ compressionLevel: 0 })
      .toBuffer();
  // The background's weight is 1 - alpha: the subject left out of the blur.
  const raw = { width: image.width, height: image.height, channels: 1 } as const;
  const weight = await fromRgba(image).extractChannel(3).negate().raw().toBuffer();
  const photo = await fromRgba(image).removeAlpha().png({ compressionLevel: 0 }).toBuffer();
  const background = await sharp(photo).joinChannel(weight, { raw }).png({ compressionLevel: 0 }).toBuffer();
  const plain = await blurred(sharp(photo));
  const behind = await blurred(sharp(background));
  const filled = await sharp(plain)
    .composite([{ input: behind }])
    .removeAlpha()
    .png({ compressionLevel: 0 })
    .toBuffer();
  const subject = await fromRgba(image).png({ compressionLevel: 0 }).toBuffer();
  const full = await sharp(filled)
    .resize(image.width, image.height, { fit: 'fill', kernel: 'cubic' })
    .png({ compressionLevel: 0 })
    .toBuffer();
  return sharp(full)
    .composite([{ input: subject }])
    .removeAlpha();
}
