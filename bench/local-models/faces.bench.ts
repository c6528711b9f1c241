// Fix a Face and the vision keywords on the local engine: the whole job (decode, detect, super-
// resolve each face, blend, encode webp; or decode, detect, label) against the models alone on
// the same pixels (Human's detection, and the network on each face region), per input size.
// Run: npx tsx bench/local-models.ts faces
import path from 'node:path';
import sharp from 'sharp';
import { detectFaces } from '../../src/server/inference/local/faces/detect-faces';
import { faceRegion } from '../../src/server/inference/local/faces/fix-a-face';
import { FIXTURE_IMAGES, imageInputFrom } from '../../src/server/inference/local/faces/fixture-image';
import { DETECT_MAX_SIDE, runHuman } from '../../src/server/inference/local/faces/human-runtime';
import { visionKeywords } from '../../src/server/inference/local/faces/vision-keywords';
import { createLocalProvider } from '../../src/server/inference/local/local-provider';
import { decodeRgb, decodeUpright, fromRaw, type RawImage } from '../../src/server/inference/local/raw-image';
import { esrganGate, superResolve } from '../../src/server/inference/local/upscale/super-resolve';
import { SERVER_TOOLS, type ToolInput } from '../../src/server/tools/registry';
import { jobAgainstInference, measure, measured, printRow } from './measure';

const provider = createLocalProvider(SERVER_TOOLS);
// The machine's two cores are shared: each figure is the fastest of a few runs, job and inference
// interleaved so that both see the same load.
const signal = new AbortController().signal;

/** The astronaut photo (512 x 512) at `side` px, as a PNG upload. */
async function upload(side: number) {
  const png = await sharp(path.join(FIXTURE_IMAGES, 'astronaut.png')).resize(side, side).png().toBuffer();
  return imageInputFrom(png);
}

async function crop(image: RawImage, area: { x: number; y: number; width: number; height: number }) {
  const { data, info } = await fromRaw(image)
    .extract({ left: area.x, top: area.y, width: area.width, height: area.height })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 } as RawImage;
}

// Load the models once, outside the figures (a one-off per server process). Human's first
// detection also compiles its kernels: run one on a small image before measuring.
const warm = await decodeRgb((await upload(256)).bytes);
const human = await measure('load human', () => runHuman(warm, 'faces-expressions-objects'));
console.log(`load Human (blazeface, facemesh, emotion, centernet) + first run: ${human.figures.ms.toFixed(0)} ms`);
const esrgan = await measure('load esrgan', () => esrganGate(2).run(async () => undefined));
console.log(`load ESRGAN slim x2: ${esrgan.figures.ms.toFixed(0)} ms`);

for (const side of [512, 1024]) {
  const image = await upload(side);
  const pixels = await decodeRgb(image.bytes);
  const faces = await detectFaces(pixels);
  const regions = await Promise.all(faces.map((face) => crop(pixels, faceRegion(face, pixels))));
  const sides = regions.map((r) => `${r.width}x${r.height}`).join(', ');

  const input: ToolInput = { tool: 'fix-a-face', image, scale: 2 };
  const fix = await jobAgainstInference(
    () => provider.run(input, signal),
    measured('inference', async () => {
      await detectFaces(pixels);
      for (const region of regions) await superResolve(region, 2);
    }),
  );
  printRow('fix-a-face', `${side} px`, fix.job, fix.inference);
  console.log(`  ${faces.length} face(s), region(s) ${sides}`);

  const keywords = await jobAgainstInference(
    async () => visionKeywords(await decodeUpright(image.bytes, DETECT_MAX_SIDE)),
    measured('inference', () => runHuman(pixels, 'faces-expressions-objects')),
  );
  printRow('vision-keywords', `${side} px`, keywords.job, keywords.inference);
  console.log(`  ${keywords.result.map((k) => `${k.keyword} ${k.score}`).join(', ')}`);
}
