// Image Analyzer labels on the labelled test images (labelled-images.ts): precision and recall of
// the object detector's labels across score thresholds, the rule before (>= 0.3, species named)
// and after (decision 019), and the time per image. Run: npm run bench:analyzer
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LABELLED_IMAGES, precisionRecall, scoreLabels } from '../src/server/inference/local/analyze/labelled-images';
import { FIXTURE_IMAGES } from '../src/server/inference/local/faces/fixture-image';
import { DETECT_MAX_SIDE, runHuman } from '../src/server/inference/local/faces/human-runtime';
import { objectKeywords } from '../src/server/inference/local/faces/vision-keywords';
import { decodeUpright } from '../src/server/inference/local/raw-image';
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
