// Image Analyzer and the upload NSFW check on the local engine, at 512 and 1024 px: the whole job
// against its model part alone (the vision models for the analyzer, MobileNetV2 for the check).
// Run: npx tsx bench/local-models.ts analyze
import path from 'node:path';
import sharp from 'sharp';
import { decodeForAnalysis, loadAnalysisPixels } from '../../src/server/inference/local/analyze/analysis-pixels';
import { imageProperties } from '../../src/server/inference/local/analyze/image-properties';
import { extractPalette } from '../../src/server/inference/local/analyze/palette';
import { FIXTURE_IMAGES, imageInputFrom } from '../../src/server/inference/local/faces/fixture-image';
import { visionKeywords } from '../../src/server/inference/local/faces/vision-keywords';
import { createLocalProvider } from '../../src/server/inference/local/local-provider';
import { createNsfwjsClassifier, nsfwGate, runNsfwModel } from '../../src/server/inference/local/nsfw/nsfw-classifier';
import { SERVER_TOOLS } from '../../src/server/tools/registry';
import { jobAgainstInference, measure, measured, printRow } from './measure';

const provider = createLocalProvider(SERVER_TOOLS);
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

// Models load once per server process: timed apart from the runs.
const warm = await upload(64);
const warmDecoded = (await decodeForAnalysis(warm.bytes)).image;
const loadVision = await measure('load', () => visionKeywords(warmDecoded));
console.log(`load vision models + first run: ${loadVision.figures.ms.toFixed(0)} ms`);
const loadNsfw = await measure('load', () => classifier.classify(warm));
console.log(`load nsfwjs MobileNetV2 + first run: ${loadNsfw.figures.ms.toFixed(0)} ms`);

for (const side of [512, 1024]) {
  const image = await upload(side);
  const decoded = (await decodeForAnalysis(image.bytes)).image;
  const analyzer = await jobAgainstInference(
    () => provider.run({ tool: 'image-analyzer', image }, signal),
    measured('vision', () => visionKeywords(decoded)),
  );
  printRow('image-analyzer', `${side} px`, analyzer.job, analyzer.inference);
  const colours = await jobAgainstInference(
    async () => {
      const pixels = await loadAnalysisPixels(image.bytes);
      return { palette: await extractPalette(pixels), properties: imageProperties(pixels) };
    },
    measured('none', async () => undefined),
  );
  console.log(`  palette + properties alone (decode included): ${colours.job.ms.toFixed(0)} ms`);

  // The network alone, in its thread, on a blank input of its size (as the check sends it).
  const blank = new Uint8Array(224 * 224 * 3);
  const nsfw = await jobAgainstInference(
    () => classifier.classify(image),
    measured('network', () => nsfwGate().run((thread) => runNsfwModel(thread, blank))),
  );
  printRow('nsfw check', `${side} px`, nsfw.job, nsfw.inference);
}

const result = await provider.run({ tool: 'image-analyzer', image: await upload(1024) }, signal);
console.log(JSON.stringify(result));
