// Image Analyzer and the upload NSFW check on the local engine, at 512 and 1024 px: the whole job
// against its model part alone (the vision models for the analyzer, MobileNetV2 for the check).
// Run: npx tsx bench/local-models.ts analyze
import path from 'node:path';
import sharp from 'sharp';
import { createNsfwjsClassifier, nsfwGate } from '../../src/server/images/moderation/nsfw-classifier';
import { loadAnalysisPixels } from '../../src/server/inference/local/analyze/analysis-pixels';
import { imageProperties } from '../../src/server/inference/local/analyze/image-properties';
import { extractPalette } from '../../src/server/inference/local/analyze/palette';
import { FIXTURE_IMAGES, imageInputFrom } from '../../src/server/inference/local/faces/fixture-image';
import { visionKeywords } from '../../src/server/inference/local/faces/vision-keywords';
import { createLocalProvider } from '../../src/server/inference/local/local-provider';
import { type Measurement, measure, printRow } from './measure';

const provider = createLocalProvider();
const signal = new AbortController().signal;
const classifier = createNsfwjsClassifier();

/** Grace Hopper's portrait (a face, a uniform, a flag) at `side` px on its long side, as a JPEG upload. */
async function upload(side: number) {
  const jpeg = await sharp(path.join(FIXTURE_IMAGES, 'grace_hopper.jpg'))
    .resize(side, side, { fit: 'inside' })
    .jpeg({ quality: 90 })
    .toBuffer();
  return imageInputFrom(jpeg);
}

/** The median of three runs: single runs on two shared cores swing by tens of milliseconds. */
async function median(label: string, work: () => Promise<unknown>): Promise<Measurement> {
  const runs: Measurement[] = [];
  for (let i = 0; i < 3; i++) runs.push((await measure(label, work)).figures);
  return runs.sort((a, b) => a.ms - b.ms)[1] as Measurement;
}

// Models load once per server process: timed apart from the runs.
const warm = await upload(64);
const loadVision = await measure('load', () => visionKeywords(warm));
console.log(`load vision models + first run: ${loadVision.figures.ms.toFixed(0)} ms`);
const loadNsfw = await measure('load', () => classifier.classify(warm));
console.log(`load nsfwjs MobileNetV2 + first run: ${loadNsfw.figures.ms.toFixed(0)} ms`);

for (const side of [512, 1024]) {
  const image = await upload(side);
  const job = await median('job', () => provider.run({ tool: 'image-analyzer', image }, signal));
  const vision = await median('vision', () => visionKeywords(image));
  printRow('image-analyzer', `${side} px`, job, vision);
  const colours = await median('palette', async () => {
    const pixels = await loadAnalysisPixels(image.bytes);
    return { palette: await extractPalette(pixels), properties: imageProperties(pixels) };
  });
  console.log(`  palette + properties alone (decode included): ${colours.ms.toFixed(0)} ms`);

  const check = await median('check', () => classifier.classify(image));
  const tensor = await nsfwGate.run(
    async ({ tf }) => tf.zeros([224, 224, 3], 'int32') as import('@tensorflow/tfjs').Tensor3D,
  );
  const network = await median('network', () => nsfwGate.run(({ model }) => model.classify(tensor)));
  tensor.dispose();
  printRow('nsfw check', `${side} px`, check, network);
}

const result = await provider.run({ tool: 'image-analyzer', image: await upload(1024) }, signal);
console.log(JSON.stringify(result));
