// Image Analyzer labels on the labelled test images (labelled-images.ts): precision and recall of
// the object detector's labels across score thresholds, the rule before (>= 0.3, species named)
// and after (decision 019); the text read and the photo/illustration call on photos and drawn
// images; the time per image. Run: npm run bench:analyzer
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ImageInput } from '../src/server/images/image-types';
import { loadAnalysisPixels } from '../src/server/inference/local/analyze/analysis-pixels';
import { analyzeImage } from '../src/server/inference/local/analyze/analyze-image';
import { FLAT_DRAWINGS, flatDrawing, poster } from '../src/server/inference/local/analyze/drawn-images';
import { LABELLED_IMAGES, precisionRecall, scoreLabels } from '../src/server/inference/local/analyze/labelled-images';
import { flatShare, pictureKind } from '../src/server/inference/local/analyze/picture-kind';
import { FIXTURE_IMAGES, fixtureImage } from '../src/server/inference/local/faces/fixture-image';
import { DETECT_MAX_SIDE, runHuman } from '../src/server/inference/local/faces/human-runtime';
import { objectKeywords } from '../src/server/inference/local/faces/vision-keywords';
import { createNsfwjsClassifier } from '../src/server/inference/local/nsfw/nsfw-classifier';
import { decodeUpright } from '../src/server/inference/local/raw-image';
import { readText } from '../src/server/inference/local/text/read-text';
import { MIN_TEXT_SCORE, wordsAsKeywords } from '../src/server/inference/local/text/text-keywords';
import type { Keyword } from '../src/server/inference/provider';

type Guess = { label: string; score: number };
const detections: { file: string; objects: Guess[] }[] = [];
for (const { file } of LABELLED_IMAGES) {
  const raw = await decodeUpright(await readFile(path.join(FIXTURE_IMAGES, file)), DETECT_MAX_SIDE);
  const { object } = await runHuman(raw, 'faces-expressions-objects');
  detections.push({ file, objects: object.map(({ label, score }) => ({ label, score })) });
  console.log(`${file}: ${object.map((o) => `${o.label} ${o.score.toFixed(2)}`).join(', ') || '(nothing)'}`);
}

const measureRule = (name: string, rule: (objects: Guess[]) => Keyword[]) => {
  const scores = LABELLED_IMAGES.map((image, i) => scoreLabels(image, rule(detections[i]?.objects ?? [])));
  const { precision, recall } = precisionRecall(scores);
  const said = scores.reduce((n, s) => n + s.said, 0);
  console.log(`| ${name} | ${said} | ${precision.toFixed(2)} | ${recall.toFixed(2)} |`);
};

const speciesNamed = (minScore: number) => (objects: Guess[]) =>
  objects.filter((o) => o.score >= minScore).map(({ label, score }) => ({ keyword: label, score }));

console.log('\n| rule | labels said | precision | recall |\n|---|---|---|---|');
for (const threshold of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6]) {
  measureRule(`>= ${threshold}, species named`, speciesNamed(threshold));
}
measureRule('before: >= 0.3, species named', speciesNamed(0.3));
measureRule('after: >= 0.35, unsure species "animal"', (objects) => objectKeywords(objects));

// Text: what PP-OCRv4 reads (every line, before the confidence threshold and the word filter) on
// the photos, which hold no text, and on rendered posters, which do; and its time per image.
const posters: [string, Promise<ImageInput>][] = [
  ['poster "SUMMER SALE" 96 px PNG', poster('SUMMER SALE')],
  ['poster "Open 24 hours" 48 px JPEG', poster('Open 24 hours', 48, 'jpeg')],
  ['poster "Picture Palette 2026" 32 px JPEG', poster('Picture Palette 2026', 32, 'jpeg')],
  ['poster "FRESH COFFEE" 64 px PNG', poster('FRESH COFFEE', 64)],
];
const textInputs: [string, ImageInput][] = [
  ...(await Promise.all(posters.map(async ([name, image]) => [name, await image] as [string, ImageInput]))),
  ...(await Promise.all(
    LABELLED_IMAGES.map(async ({ file }) => [file, await fixtureImage(file)] as [string, ImageInput]),
  )),
];
await readText(await decodeUpright(textInputs[0]?.[1].bytes ?? Buffer.alloc(0), DETECT_MAX_SIDE)); // loads the model
console.log(
  `\nText read (threshold ${MIN_TEXT_SCORE}):\n| image | lines read (confidence) | keywords | ms |\n|---|---|---|---|`,
);
for (const [name, image] of textInputs) {
  const raw = await decodeUpright(image.bytes, DETECT_MAX_SIDE);
  const started = performance.now();
  const lines = await readText(raw);
  const ms = performance.now() - started;
  const read = lines.map((l) => `${l.text} (${l.score.toFixed(2)})`).join(', ') || '-';
  const words =
    wordsAsKeywords(lines)
      .map((k) => k.keyword)
      .join(', ') || '-';
  console.log(`| ${name} | ${read} | ${words} | ${ms.toFixed(0)} |`);
}

// Photo or illustration: nsfwjs's drawing classes, the flat share, and the keyword given.
const classifier = createNsfwjsClassifier();
const kindInputs: [string, ImageInput][] = [
  ...(await Promise.all(
    Object.keys(FLAT_DRAWINGS).flatMap((name) =>
      (['png', 'jpeg'] as const).map(
        async (format) => [`drawing ${name} ${format}`, await flatDrawing(name, format)] as [string, ImageInput],
      ),
    ),
  )),
  ...textInputs.slice(posters.length),
];
console.log('\n| image | nsfwjs Drawing + Hentai | flat share | keyword |\n|---|---|---|---|');
for (const [name, image] of kindInputs) {
  const scores = await classifier.classify(image);
  const pixels = await loadAnalysisPixels(image.bytes);
  const kind =
    pictureKind(pixels, scores)
      .map((k) => `${k.keyword} ${k.score}`)
      .join('') || '-';
  console.log(
    `| ${name} | ${(scores.Drawing + scores.Hentai).toFixed(2)} | ${flatShare(pixels)?.toFixed(2)} | ${kind} |`,
  );
}

// The whole local analysis per image (decode, vision, text, nsfwjs, palette), models loaded.
console.log('\n| image | analysis ms | keywords |\n|---|---|---|');
for (const [name, image] of textInputs) {
  const started = performance.now();
  const { keywords } = await analyzeImage(image);
  console.log(
    `| ${name} | ${(performance.now() - started).toFixed(0)} | ${keywords.map((k) => k.keyword).join(', ')} |`,
  );
}

console.log(
  `\nprocess RSS after the runs (Human, PP-OCRv4 and nsfwjs loaded): ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
);
