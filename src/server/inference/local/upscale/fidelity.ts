// A fidelity step after the super-resolution networks: their 4x outputs are mixed with the input's
// plain Lanczos enlargement (decision 026). The networks and Lanczos err in different ways (a network
// smooths fur or draws structure into noise; Lanczos blurs and keeps JPEG blocks), so a weighted mean
// is closer to the real photo than any one of them (bench/quality, SSIM, tuning and held-out crops).
// It costs one Lanczos resize of the input and a pass over the output's bytes, nothing next to a network.
import type { RawImage } from '../raw-image';
import { fromRaw, resizedTo } from '../raw-image';
import { degraded, ssim } from './sharpness';

/**
 * The network's share of the mix where it is not measured on the image (`calibratedShare`: an image
 * under 64 px a side, Fix a Face's small face regions). 0.65 measured best of 0.5, 0.65 and 0.8 on
 * the bench photos' mean; more Lanczos brings its JPEG blocks and blur back into view (docs/quality/).
 */
export const NETWORK_SHARE = 0.65;

/** A network's enlargement of the input and its share of the mix. */
export type NetworkOutput = { image: RawImage; share: number };

/**
 * The networks' outputs (all the same size) mixed by their shares, with the input enlarged by
 * Lanczos to their size taking the rest (1 - the shares' sum).
 */
export async function mixWithLanczos(outputs: NetworkOutput[], input: RawImage): Promise<RawImage> {
  const [first] = outputs;
  if (!first) throw new Error('the fidelity step needs at least one network output');
  const { width, height } = first.image;
  if (input.channels !== 3 || outputs.some(({ image }) => image.channels !== 3)) {
    throw new Error('the fidelity step takes RGB pixels');
  }
  if (outputs.some(({ image }) => image.width !== width || image.height !== height)) {
    throw new Error('the networks’ outputs must have one size');
  }
  const total = outputs.reduce((sum, { share }) => sum + share, 0);
  if (outputs.some(({ share }) => !(share >= 0)) || !(total <= 1)) {
    throw new Error(`the networks' share must be within 0..1, got ${total}`);
  }
  const { data: lanczos } = await resizedTo(input, width, height);
  const data = Buffer.alloc(first.image.data.length);
  for (let i = 0; i < data.length; i++) {
    let value = (1 - total) * (lanczos[i] ?? 0);
    for (const { image, share } of outputs) value += share * (image.data[i] ?? 0);
    data[i] = Math.round(value);
  }
  return { data, width, height, channels: 3 };
}

/** `restored` (a network's enlargement of `input`) mixed with `input` enlarged by Lanczos to its size. */
export function withFidelity(restored: RawImage, input: RawImage, share = NETWORK_SHARE): Promise<RawImage> {
  return mixWithLanczos([{ image: restored, share }], input);
}

/**
 * The shares `calibratedShare` tries. Not below 0.4: on fur the SSIM gains a little more at 0.3,
 * but the picture looks like the blocky JPEG again (contact sheets, docs/quality/).
 */
export const CALIBRATION_SHARES = [0.4, 0.5, 0.6, 0.65, 0.7, 0.8] as const;
/** It looks at a centre crop of the input of at most this many pixels a side (a multiple of 4). */
const CALIBRATION_SIDE = 256;
/** Below this many pixels a side there is too little to measure: the fixed share is used. */
const CALIBRATION_MIN_SIDE = 64;

/** A network's 4x enlargement of an image. */
export type Restore4x = (image: RawImage) => Promise<RawImage>;

/**
 * The network's share for this image, measured on the image itself (decision 026): a centre crop of
 * the input is reduced `factor` times (the tool's enlargement: 2 or 4) and saved at JPEG quality 40
 * (as bench/quality degrades photos), restored
 * by the same network and mixed with Lanczos at each of CALIBRATION_SHARES; the share whose mix
 * comes closest to the crop (SSIM) is the one for the whole image. Fur, grass and other fine texture
 * that the network smooths away ask for more Lanczos; clean edges and flat skies for more network.
 * Costs the network on 1/16 (1/4 at 2x) of a 256 px crop and six small mixes.
 */
export async function calibratedShare(
  input: RawImage,
  restore4x: Restore4x,
  { factor = 4 }: { factor?: 2 | 4 } = {},
): Promise<number> {
  const candidates = CALIBRATION_SHARES.map((share) => [share]);
  const [share = NETWORK_SHARE] = await calibratedMix(input, [restore4x], candidates, [NETWORK_SHARE], { factor });
  return share;
}

/**
 * Of `candidates` (each a share per network, in the order of `networks`), the mix that comes closest
 * (SSIM) to a centre crop of `input` (at most `side` px) reduced `factor` times at JPEG q40, restored
 * by every network at 4x, mixed, and brought to the crop's size; `fallback` for an image too small
 * to measure, without running a network. A tool that enlarges 2x measures at 2x: the JPEG blocks
 * and texture of a 2x reduction ask for another mix than a 4x one (bench/quality, held-out crops).
 */
export async function calibratedMix(
  input: RawImage,
  networks: Restore4x[],
  candidates: readonly (readonly number[])[],
  fallback: readonly number[],
  { factor = 4, side: limit = CALIBRATION_SIDE }: { factor?: 2 | 4; side?: number } = {},
): Promise<readonly number[]> {
  const side = (length: number) => Math.min(limit, length - (length % 4));
  const width = side(input.width);
  const height = side(input.height);
  if (width < CALIBRATION_MIN_SIDE || height < CALIBRATION_MIN_SIDE) return fallback;
  const left = Math.floor((input.width - width) / 2);
  const top = Math.floor((input.height - height) / 2);
  const data = await fromRaw(input).extract({ left, top, width, height }).raw().toBuffer();
  const crop: RawImage = { data, width, height, channels: 3 };
  const small = await degraded(crop, factor);
  const restored: RawImage[] = [];
  // One after the other: each network wants both cores.
  for (const network of networks) restored.push(await network(small));
  let best = fallback;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const shares of candidates) {
    const outputs = restored.map((image, i) => ({ image, share: shares[i] ?? 0 }));
    const mixed = await mixWithLanczos(outputs, small);
    const score = ssim(factor === 4 ? mixed : await resizedTo(mixed, width, height), crop);
    if (score > bestScore) [best, bestScore] = [shares, score];
  }
  return best;
}
