// Fix a Face on the local engine (inference.md: "face-aware local enhancement"): the whole image
// is enlarged 2x with lanczos, and each detected face, with a margin around it, is enlarged by the
// super-resolution network instead (Real-ESRGAN x4fast: deblurred, JPEG blocks removed), and
// blended in through a feathered oval so that no edge shows. There is no face-restoration network
// (GFPGAN, CodeFormer) on npm; this is the honest local equivalent and is labelled local.
import { exceedsUpscaleLimit, UPSCALE_MAX_INPUT } from '../../../../contract/tools';
import type { ImageInput } from '../../../images/image-types';
import { ProviderError } from '../../provider';
import type { LocalEngine } from '../local-engine';
import { decodeRgb, fromRaw, type RawImage } from '../raw-image';
import { withFidelity } from '../upscale/fidelity';
import { restore4x } from '../upscale/super-resolve';
import type { FaceBox } from './detect-faces';
import { MIN_FACE_HEIGHT, restorableFaces } from './restorable-faces';

const SCALE = 2 as const;
/** The output's bound, as for the 2x upscaler (~16 megapixels); webp also stops at 16383 px a side. */
const MAX_INPUT = UPSCALE_MAX_INPUT[SCALE];
/** Context kept around each face box, as a share of its size per side: hair, chin, ears. */
const FACE_MARGIN = 0.35;
/**
 * The network's time grows with the pixels it sees (x4fast: ~24 s per megapixel on a quiet machine,
 * so ~6 s for a 512 px region; bench/quality's portrait took 1.9 s in all): larger face regions are
 * reduced to this side first, then the network's 4x output is resized to the region's 2x.
 */
const MAX_REGION_SIDE = 512;
/** Inside this share of the oval's radius the enhanced face is kept whole; beyond it, it fades out. */
const FEATHER_START = 0.7;

type Region = { x: number; y: number; width: number; height: number };

/**
 * The image enlarged 2x with every face super-resolved; rejects with the user's message when there
 * is no face or none of at least `minFaceHeight` (restorable-faces.ts; the bench lowers it to measure).
 */
export async function fixFaces(
  image: RawImage,
  signal?: AbortSignal,
  { minFaceHeight = MIN_FACE_HEIGHT } = {},
): Promise<RawImage> {
  if (image.channels !== 3) throw new Error(`Fix a Face takes RGB pixels, got ${image.channels} channels`);
  if (exceedsUpscaleLimit(image.width, image.height, SCALE)) {
    throw new ProviderError(`input of ${image.width}x${image.height} is too large for 2x`, {
      userMessage: `This image is too large for Fix a Face: please use one of at most ${MAX_INPUT.label} pixels.`,
    });
  }
  const faces = await restorableFaces(image, signal, minFaceHeight);
  const { data, info } = await fromRaw(image)
    .resize(image.width * SCALE, image.height * SCALE, { kernel: 'lanczos3', fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const out: RawImage = { data, width: info.width, height: info.height, channels: 3 };
  for (const face of faces) {
    signal?.throwIfAborted();
    const region = faceRegion(face, image);
    const enhanced = await enhanceRegion(image, region, signal);
    blendFeathered(out, enhanced, region.x * SCALE, region.y * SCALE);
  }
  return out;
}

/** The face box grown by FACE_MARGIN on every side, within the image. */
export function faceRegion(face: FaceBox, image: { width: number; height: number }): Region {
  const dx = Math.round(face.width * FACE_MARGIN);
  const dy = Math.round(face.height * FACE_MARGIN);
  const x = Math.max(0, face.x - dx);
  const y = Math.max(0, face.y - dy);
  return {
    x,
    y,
    width: Math.min(image.width, face.x + face.width + dx) - x,
    height: Math.min(image.height, face.y + face.height + dy) - y,
  };
}

/**
 * The region restored by Real-ESRGAN's compact network (4x, deblurred, JPEG blocks gone) mixed
 * with Lanczos as the upscalers are (fidelity.ts), brought back to exactly 2x its size with Lanczos.
 */
async function enhanceRegion(image: RawImage, region: Region, signal?: AbortSignal): Promise<RawImage> {
  const shrink = Math.min(1, MAX_REGION_SIDE / Math.max(region.width, region.height));
  const crop = await toRaw(
    fromRaw(image)
      .extract({ left: region.x, top: region.y, width: region.width, height: region.height })
      .resize(Math.max(1, Math.round(region.width * shrink)), Math.max(1, Math.round(region.height * shrink)), {
        kernel: 'lanczos3',
        fit: 'fill',
      }),
  );
  const resolved = await withFidelity(await restore4x(crop, 'x4fast', signal), crop);
  const target = { width: region.width * SCALE, height: region.height * SCALE };
  let pipeline = fromRaw(resolved);
  if (resolved.width !== target.width || resolved.height !== target.height) {
    pipeline = pipeline.resize(target.width, target.height, { kernel: 'lanczos3', fit: 'fill' });
  }
  return toRaw(pipeline);
}

async function toRaw(pipeline: ReturnType<typeof fromRaw>): Promise<RawImage> {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

/**
 * Mixes `patch` into `base` at (left, top): fully inside an oval that fills the patch, fading
 * smoothly to nothing at the oval's edge, so the patch's rectangle never shows.
 */
function blendFeathered(base: RawImage, patch: RawImage, left: number, top: number): void {
  const cx = patch.width / 2;
  const cy = patch.height / 2;
  for (let y = 0; y < patch.height; y++) {
    const by = top + y;
    if (by < 0 || by >= base.height) continue;
    const ny = (y + 0.5 - cy) / cy;
    for (let x = 0; x < patch.width; x++) {
      const bx = left + x;
      if (bx < 0 || bx >= base.width) continue;
      const nx = (x + 0.5 - cx) / cx;
      const weight = featherWeight(Math.sqrt(nx * nx + ny * ny));
      if (weight === 0) continue;
      const p = (y * patch.width + x) * 3;
      const b = (by * base.width + bx) * 3;
      for (let c = 0; c < 3; c++) {
        base.data[b + c] = Math.round((base.data[b + c] ?? 0) * (1 - weight) + (patch.data[p + c] ?? 0) * weight);
      }
    }
  }
}

/** 1 inside FEATHER_START of the radius, 0 from the edge out, a smoothstep between. */
function featherWeight(radius: number): number {
  if (radius <= FEATHER_START) return 1;
  if (radius >= 1) return 0;
  const t = (1 - radius) / (1 - FEATHER_START);
  return t * t * (3 - 2 * t);
}

/** Fix a Face's engine: the upload at 2x with its faces restored (webp). */
export const fixAFaceEngine: LocalEngine<{ image: ImageInput }> = async ({ image }, signal) => {
  const fixed = await fixFaces(await decodeRgb(image.bytes), signal);
  signal.throwIfAborted();
  const bytes = await fromRaw(fixed).webp({ quality: 90 }).toBuffer();
  return { kind: 'images', images: [{ bytes, contentType: 'image/webp' }] };
};
