// The Image Upscaler and Creative Upscaler on the local engine: Real-ESRGAN super-resolution
// (super-resolve.ts, real-esrgan.ts), encoded as webp like the hosted models' outputs.
import sharp from 'sharp';
import { exceedsUpscaleLimit, UPSCALE_MAX_INPUT, upscaleMaxSide } from '../../../../contract/tools';
import type { ImageInput, OutputImage } from '../../../images/image-types';
import { ProviderError, type ToolResult } from '../../provider';
import type { LocalEngine } from '../local-engine';
import { decodeUpright, fromRaw, type RawImage, resizedTo, splitAlpha } from '../raw-image';
import { calibratedMix, calibratedShare, mixWithLanczos, withFidelity } from './fidelity';
import type { RealEsrganModel } from './real-esrgan-files';
import { restore4x } from './super-resolve';

export type UpscaleFactor = 2 | 4 | 6;

/**
 * Input pixels each network is given at most, so that a job stays within about a minute on this
 * machine's two cores (quiet machine: x4fast ~24 s and x4plus ~300 s per input megapixel with
 * REAL_ESRGAN_TILING; 3-6x that while other work loads the cores). A larger upload is reduced
 * (Lanczos) before the network, whose 4x output is then resized to the asked size. x4fast's budget
 * (~50 s) only touches 2x uploads over 1448 x 1448 (reduced to 0.71x at worst); x4plus's (~20 s)
 * keeps the 70-token Creative Upscaler near the browser's 30 s wait, at the cost of reducing uploads
 * over 256 x 256 (a 451 x 300 cat to 0.71x; still 2.8x of network enlargement).
 */
export const NETWORK_PIXEL_BUDGET: Record<RealEsrganModel, number> = { x4fast: 1448 * 1448, x4plus: 256 * 256 };

/**
 * The image enlarged `factor` times: Real-ESRGAN's compact network (x4fast) gives 4x, which Lanczos
 * brings to 2x or 6x, within the network's pixel budget. Restoring at 4x then reducing beat the RDN 2x network on every photo of
 * bench/quality (SSIM), and costs the same per input pixel.
 */
export async function upscaleBy(image: RawImage, factor: UpscaleFactor, signal?: AbortSignal): Promise<RawImage> {
  const { width, height } = networkInputSize(image, 'x4fast');
  // What the network's input is enlarged by in all: a large 2x upload reduced to the budget, more.
  const enlargement = (factor * image.width) / width < 3 ? 2 : 4;
  const input = await resizedTo(image, width, height);
  const restored = await restoredWithFidelity(input, 'x4fast', signal, enlargement);
  return resizedTo(restored, image.width * factor, image.height * factor);
}

/**
 * The Creative Upscaler's mix (decision 026): Real-ESRGAN's large network (x4plus, RRDBNet), which
 * redraws texture (fur, hair, skin) where the compact one smooths it, with the compact network and
 * Lanczos, which keep it from drawing what was not there (star fields, fur in the wrong place).
 * The shares are measured on each image (CREATIVE_MIXES); this one is for images too small to measure.
 */
export const CREATIVE_MIX = { x4plus: 0.5, x4fast: 0.25 } as const;

/**
 * The mixes the Creative Upscaler measures on each image ([x4plus, x4fast], Lanczos the rest): on the
 * bench photos and held-out crops at 2x, the fixed 50/25 mix lost to Lanczos on one crop (0.978x SSIM,
 * grass) and cleared it by under 1% on two; measured per image at 2x, the worst is a tie (1.000x) and
 * the bench's centre crops clear it by 2-8% (docs/performance.md). x4plus keeps at least 40%: below,
 * SSIM gains a little more on fur but the redrawn texture, what the tool is for, fades to the plain
 * upscaler's.
 */
export const CREATIVE_MIXES = [0.4, 0.5].flatMap((x4plus) =>
  [0.2, 0.25, 0.3].map((x4fast) => [x4plus, x4fast] as const),
);
/** The calibration's crop: 128 px, a 64 px reduction for x4plus, about a sixteenth of its main run. */
const CREATIVE_CALIBRATION_SIDE = 128;

/** The Creative Upscaler's 2x: both networks on the same input, mixed with Lanczos as measured on it. */
export async function creativeUpscale(image: RawImage, signal?: AbortSignal): Promise<RawImage> {
  const { width, height } = networkInputSize(image, 'x4plus');
  const input = await resizedTo(image, width, height);
  // One after the other: the two cores are the large network's.
  const large = (image: RawImage) => restore4x(image, 'x4plus', signal);
  const compact = (image: RawImage) => restore4x(image, 'x4fast', signal);
  const [x4plus = CREATIVE_MIX.x4plus, x4fast = CREATIVE_MIX.x4fast] = await calibratedMix(
    input,
    [large, compact],
    CREATIVE_MIXES,
    [CREATIVE_MIX.x4plus, CREATIVE_MIX.x4fast],
    { factor: 2, side: CREATIVE_CALIBRATION_SIDE },
  );
  const mixed = await mixWithLanczos(
    [
      { image: await large(input), share: x4plus },
      { image: await compact(input), share: x4fast },
    ],
    input,
  );
  return resizedTo(mixed, image.width * 2, image.height * 2);
}

/**
 * `input` enlarged 4x by `model`, mixed with Lanczos at the share measured on `input` (fidelity.ts)
 * at the enlargement the tool makes (2: a 2x upscale measures on a 2x reduction; 4: 4x and more).
 */
export async function restoredWithFidelity(
  input: RawImage,
  model: RealEsrganModel,
  signal?: AbortSignal,
  enlargement: 2 | 4 = 4,
) {
  const network = (image: RawImage) => restore4x(image, model, signal);
  const share = await calibratedShare(input, network, { factor: enlargement });
  return withFidelity(await network(input), input, share);
}

/** The size `model` is given for an image: its own, or reduced to fit NETWORK_PIXEL_BUDGET. */
export function networkInputSize({ width, height }: { width: number; height: number }, model: RealEsrganModel) {
  const shrink = Math.min(1, Math.sqrt(NETWORK_PIXEL_BUDGET[model] / (width * height)));
  return { width: Math.max(1, Math.floor(width * shrink)), height: Math.max(1, Math.floor(height * shrink)) };
}

/**
 * The upload's transparency enlarged with Lanczos to the output's size: the network sees RGB only,
 * and a transparent logo must stay transparent.
 */
async function enlargedAlpha(alpha: Buffer, from: RawImage, width: number, height: number): Promise<Buffer> {
  return (
    sharp(alpha, { raw: { width: from.width, height: from.height, channels: 1 } })
      .resize(width, height, { fit: 'fill', kernel: 'lanczos3' })
      // sharp turns a one-channel input into sRGB on output unless told to keep a single band.
      .extractChannel(0)
      .raw()
      .toBuffer()
  );
}

async function webp(image: RawImage, alpha?: Buffer): Promise<OutputImage> {
  let pipeline = fromRaw(image);
  if (alpha) pipeline = pipeline.joinChannel(alpha, { raw: { width: image.width, height: image.height, channels: 1 } });
  // effort 2: about twice as fast as the default 4 on big outputs, files ~3% larger.
  return { bytes: await pipeline.webp({ quality: 90, effort: 2 }).toBuffer(), contentType: 'image/webp' };
}

/**
 * The upload decoded once, RGB for the network and its alpha apart, once it is known to fit: the
 * server checks the pixel limit before charging (UPSCALE_MAX_INPUT); webp's largest side is
 * checked here, as no limit in pixels bounds it.
 */
async function decodeWithin(image: ImageInput, factor: UpscaleFactor, userMessage: string) {
  if (exceedsUpscaleLimit(image.width, image.height, factor)) {
    throw new ProviderError(`input of ${image.width}x${image.height} is too large for ${factor}x`, { userMessage });
  }
  return splitAlpha(await decodeUpright(image.bytes));
}

/** The enlarged RGB with the upload's alpha, if any, enlarged to match: a webp. */
async function withAlphaAsWebp(enlarged: RawImage, upload: { rgb: RawImage; alpha?: Buffer }) {
  const alpha = upload.alpha && (await enlargedAlpha(upload.alpha, upload.rgb, enlarged.width, enlarged.height));
  return images(await webp(enlarged, alpha));
}

/** The Image Upscaler's engine: the upload enlarged `scale` times. */
export type UpscaleParams = { image: ImageInput; scale: UpscaleFactor };

export const imageUpscalerEngine: LocalEngine<UpscaleParams> = async ({ image, scale }, signal) => {
  const upload = await decodeWithin(
    image,
    scale,
    `This image is too large for ${scale}x: please use one of at most ${UPSCALE_MAX_INPUT[scale].label} pixels and a side of at most ${upscaleMaxSide(scale)} pixels.`,
  );
  return withAlphaAsWebp(await upscaleBy(upload.rgb, scale, signal), upload);
};

/** The Creative Upscaler's engine: the upload at 2x; `tooLargeMessage`: what a user is told of one past 2x's limit. */
export type CreativeUpscaleParams = { image: ImageInput; tooLargeMessage: string };

export const creativeUpscalerEngine: LocalEngine<CreativeUpscaleParams> = async (
  { image, tooLargeMessage },
  signal,
) => {
  const upload = await decodeWithin(image, 2, tooLargeMessage);
  return withAlphaAsWebp(await creativeUpscale(upload.rgb, signal), upload);
};

const images = (image: OutputImage): ToolResult => ({ kind: 'images', images: [image] });
