// Background Remover's finishing (issue 41): what a shop listing needs without a trip to an editor.
// A crop to the subject with a margin, a square of N px with the subject centred, a soft contact
// shadow under it, and a background colour. All sharp operations (libvips' threads), no pixel loop
// here: the worker shares its thread with HTTP in a one-process server.
import sharp, { type Sharp } from 'sharp';
import { CUT_OUT_MARGIN, type CutOutFinish } from '../../../contract/output-files';

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

/** The cut-out (any format sharp reads) finished as asked: a pipeline with alpha, or flattened on `background`. */
export async function finishCutOut(bytes: Buffer, finish: CutOutFinish): Promise<Sharp> {
  const sized = finish.size !== undefined;
  if (finish.crop === undefined && !sized && !finish.shadow) return flattened(sharp(bytes), finish.background);
  let image = await rgbaOf(sharp(bytes));
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
