// A fidelity step after the super-resolution networks: their 4x outputs are mixed with the input's
// plain Lanczos enlargement (decision 026). The networks and Lanczos err in different ways (a network
// smooths fur or draws structure into noise; Lanczos blurs and keeps JPEG blocks), so a weighted mean
// is closer to the real photo than any one of them (bench/quality, SSIM, tuning and held-out crops).
// It costs one Lanczos resize of the input and a pass over the output's bytes, nothing next to a network.
import type { RawImage } from '../raw-image';
import { fromRaw } from '../raw-image';

/**
 * The network's share of the mix. 0.65 measured best of 0.5, 0.65 and 0.8 on the bench photos' mean;
 * more Lanczos brings its JPEG blocks and blur back into view (contact sheets, docs/quality/).
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
  const lanczos = await fromRaw(input).resize(width, height, { kernel: 'lanczos3', fit: 'fill' }).raw().toBuffer();
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
