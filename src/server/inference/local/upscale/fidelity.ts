// A fidelity step after the super-resolution network: its 4x output is mixed with the input's plain
// Lanczos enlargement (decision 026). The network and Lanczos err in different ways (the network
// smooths fur or draws structure into noise; Lanczos blurs and keeps JPEG blocks), so their weighted
// mean is closer to the real photo than either (bench/quality, SSIM, tuning and held-out crops). It
// costs one Lanczos resize of the input and a pass over the output's bytes, nothing next to the network.
import type { RawImage } from '../raw-image';
import { fromRaw } from '../raw-image';

/**
 * The network's share of the mix. 0.65 measured best of 0.5, 0.65 and 0.8 on the bench photos' mean;
 * more Lanczos brings its JPEG blocks and blur back into view (contact sheets, docs/quality/).
 */
export const NETWORK_SHARE = 0.65;

/** `restored` (a network's enlargement of `input`) mixed with `input` enlarged by Lanczos to its size. */
export async function withFidelity(restored: RawImage, input: RawImage, share = NETWORK_SHARE): Promise<RawImage> {
  if (restored.channels !== 3 || input.channels !== 3) throw new Error('the fidelity step takes RGB pixels');
  if (!(share >= 0 && share <= 1)) throw new Error(`the network's share must be within 0..1, got ${share}`);
  const lanczos = await fromRaw(input)
    .resize(restored.width, restored.height, { kernel: 'lanczos3', fit: 'fill' })
    .raw()
    .toBuffer();
  const data = Buffer.alloc(restored.data.length);
  for (let i = 0; i < data.length; i++) {
    data[i] = Math.round(share * (restored.data[i] ?? 0) + (1 - share) * (lanczos[i] ?? 0));
  }
  return { data, width: restored.width, height: restored.height, channels: 3 };
}
