// Image Upscaler and Creative Upscaler on the local engine: the whole job (decode, super-resolve,
// enhance, encode webp) against the inference alone (the network over every window, from decoded
// pixels), per input size and scale.
// Run: npx tsx bench/local-models.ts upscale
import path from 'node:path';
import sharp from 'sharp';
import { FIXTURE_IMAGES, imageInputFrom } from '../../src/server/inference/local/faces/fixture-image';
import { createLocalProvider } from '../../src/server/inference/local/local-provider';
import { decodeRgb } from '../../src/server/inference/local/raw-image';
import {
  DEFAULT_TILING,
  esrganGate,
  loadSrNetwork,
  superResolveTiled,
} from '../../src/server/inference/local/upscale/super-resolve';
import { upscaleBy } from '../../src/server/inference/local/upscale/upscale-engines';
import { SERVER_TOOLS, type ToolInput } from '../../src/server/tools/registry';
import { jobAgainstInference, measure, measured, printRow } from './measure';

const provider = createLocalProvider(SERVER_TOOLS);
const signal = new AbortController().signal;

/** The astronaut photo (512 x 512) at `side` px, as a PNG upload. */
async function upload(side: number) {
  const png = await sharp(path.join(FIXTURE_IMAGES, 'astronaut.png')).resize(side, side).png().toBuffer();
  return imageInputFrom(png);
}

// Load every network once, outside the figures (loading is a one-off per server process).
for (const scale of [2, 3, 4] as const) {
  const { figures } = await measure(`load x${scale}`, () => esrganGate(scale).run(async () => undefined));
  console.log(`load esrgan-slim x${scale} (ONNX graph built from the weights): ${figures.ms.toFixed(0)} ms`);
}

// 512 px and 1024 px uploads, 4x of 256 px (target: under 4 s), and each scale at its input limit
// (UPSCALE_MAX_INPUT: 2048, 1024, 680 px).
const cases: { side: number; tool: 'image-upscaler' | 'creative-upscaler'; scale: 2 | 4 | 6 }[] = [
  { side: 256, tool: 'image-upscaler', scale: 4 },
  { side: 512, tool: 'image-upscaler', scale: 2 },
  { side: 512, tool: 'image-upscaler', scale: 4 },
  { side: 512, tool: 'image-upscaler', scale: 6 },
  { side: 1024, tool: 'image-upscaler', scale: 2 },
  { side: 1024, tool: 'image-upscaler', scale: 4 },
  { side: 2048, tool: 'image-upscaler', scale: 2 },
  { side: 680, tool: 'image-upscaler', scale: 6 },
  { side: 512, tool: 'creative-upscaler', scale: 2 },
  { side: 1024, tool: 'creative-upscaler', scale: 2 },
];

for (const { side, tool, scale } of cases) {
  const image = await upload(side);
  const pixels = await decodeRgb(image.bytes);
  const input = (tool === 'image-upscaler' ? { tool, image, scale } : { tool, image, scale: 2 }) as ToolInput;
  // The largest cases take 10-40 s a run: once each.
  const runs = side * side * scale * scale > 4096 * 4096 * 0.9 ? 1 : 3;
  const { job, inference } = await jobAgainstInference(
    () => provider.run(input, signal),
    measured('inference', () => upscaleBy(pixels, scale)),
    runs,
  );
  printRow(`${tool} ${scale}x`, `${side} px${runs === 1 ? ' (1 run)' : ''}`, job, inference);
}

// The runtimes and network sizes on the same pixels, each loaded first (4x of 256 px).
const pixels = await decodeRgb((await upload(256)).bytes);
const variants = [
  ['onnx', 'slim'],
  ['tfjs', 'slim'],
  ['onnx', 'medium'],
] as const;
for (const [runtime, size] of variants) {
  const network = await loadSrNetwork(4, size, runtime);
  const { figures } = await measure(runtime, () => superResolveTiled(network, pixels, 4, DEFAULT_TILING));
  console.log(`esrgan-${size} on ${runtime}, 4x of 256 px: ${figures.ms.toFixed(0)} ms`);
}
