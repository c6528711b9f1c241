// Image Analyzer keywords on the labelled photos (test/fixtures/images/analyzer/labels.json, read by
// analyze/labelled-images.ts): precision (words said that a person accepts / words said) and recall
// (things expected that were found) of everything the analyzer says, before and after the object
// rule of decision 071; the object labels' precision by score threshold (which sets
// MIN_OBJECT_SCORE); per photo what was said; the colour measures on grey, colour and toned photos;
// the text read on posters; the photo/illustration call; the time per image.
// Run: npm run bench:analyzer [-- --sheet /tmp/analyzer-sheet.png]  (a contact sheet of the photos
// with what was said under each)
import sharp from 'sharp';
import type { ImageInput } from '../src/server/images/image-types';
import type { NsfwScores } from '../src/server/images/moderation/image-moderation';
import { loadAnalysisPixels } from '../src/server/inference/local/analyze/analysis-pixels';
import { analyzeImage } from '../src/server/inference/local/analyze/analyze-image';
import { FLAT_DRAWINGS, flatDrawing, poster } from '../src/server/inference/local/analyze/drawn-images';
import { imageProperties, measurePixels } from '../src/server/inference/local/analyze/image-properties';
import { judge, LABELLED_IMAGES, precisionRecall } from '../src/server/inference/local/analyze/labelled-images';
import { flatShare, pictureKind } from '../src/server/inference/local/analyze/picture-kind';
import { fixtureImage } from '../src/server/inference/local/faces/fixture-image';
import { DETECT_MAX_SIDE, runHuman } from '../src/server/inference/local/faces/human-runtime';
import {
  detectObjects,
  keywordsFromSeen,
  OBJECT_RULE,
  type ObjectRule,
  objectKeywords,
  type Seen,
  type SeenObject,
} from '../src/server/inference/local/faces/vision-keywords';
import { createNsfwjsClassifier } from '../src/server/inference/local/nsfw/nsfw-classifier';
import { decodeUpright } from '../src/server/inference/local/raw-image';
import { readText } from '../src/server/inference/local/text/read-text';
import { MIN_TEXT_SCORE, textKeywords, wordsAsKeywords } from '../src/server/inference/local/text/text-keywords';
import type { Keyword } from '../src/server/inference/provider';

const sheetPath = process.argv.includes('--sheet') ? process.argv[process.argv.indexOf('--sheet') + 1] : undefined;
const classifier = createNsfwjsClassifier();
/** The common sepia filter's colour matrix. */
const SEPIA: [[number, number, number], [number, number, number], [number, number, number]] = [
  [0.393, 0.769, 0.189],
  [0.349, 0.686, 0.168],
  [0.272, 0.534, 0.131],
];

// Each model runs once per photo; the rules compared below reuse what they found.
type Photo = {
  file: string;
  image: ImageInput;
  seen: Seen;
  /** centernet's guesses on the image squeezed to its square input, as before decision 071. */
  stretched: SeenObject[];
  text: Keyword[];
  scores: NsfwScores;
};
const photos: Photo[] = [];
for (const { file } of LABELLED_IMAGES) {
  const image = await fixtureImage(file);
  const raw = await decodeUpright(image.bytes, DETECT_MAX_SIDE);
  const [{ face }, { object }] = [await runHuman(raw, 'faces-expressions'), await runHuman(raw, 'objects')];
  const seen: Seen = { width: raw.width, height: raw.height, faces: face, objects: await detectObjects(raw) };
  photos.push({
    file,
    image,
    seen,
    stretched: object.map(({ label, score, box }) => ({ label, score, box })),
    text: await textKeywords(raw),
    scores: await classifier.classify(image),
  });
}

const guesses = (objects: SeenObject[]) => objects.map((o) => `${o.label} ${o.score.toFixed(2)}`).join(', ') || '-';
console.log(
  'centernet (every guess from 0.2)\n| photo | image squeezed to a square (before) | letterboxed (after) |\n|---|---|---|',
);
for (const p of photos) console.log(`| ${p.file} | ${guesses(p.stretched)} | ${guesses(p.seen.objects)} |`);

/** The whole analysis of a photo with the object rule given, the models' findings reused. */
async function analysis(photo: Photo, objects: SeenObject[], rule: ObjectRule): Promise<Keyword[]> {
  const vision = keywordsFromSeen({ ...photo.seen, objects }, rule);
  const { keywords } = await analyzeImage(photo.image, undefined, {
    vision: async () => vision,
    text: async () => photo.text,
    classifier: { classify: async () => photo.scores },
  });
  return keywords;
}

// The object labels alone (and the words they imply) by threshold: the threshold is the lowest from
// which they are right at least 9 times in 10.
const objectWords = (rule: ObjectRule, letterboxed = true) =>
  photos.map((p, i) => {
    const objects = letterboxed ? p.seen.objects : p.stretched;
    return judge(LABELLED_IMAGES[i] as (typeof LABELLED_IMAGES)[number], objectKeywords({ ...p.seen, objects }, rule));
  });
console.log(
  '\nObject labels by threshold (with the words they imply)\n| from score | squeezed: said | precision | letterboxed: said | precision |\n|---|---|---|---|---|',
);
const thresholds = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65];
const byThreshold = thresholds.map((minScore) => {
  const rule = { ...OBJECT_RULE, minScore };
  const before = precisionRecall(objectWords(rule, false));
  const after = precisionRecall(objectWords(rule));
  console.log(
    `| ${minScore} | ${before.said} | ${before.precision.toFixed(2)} | ${after.said} | ${after.precision.toFixed(2)} |`,
  );
  return { minScore, precision: after.precision };
});
const lowest = byThreshold.findIndex((_, i) => byThreshold.slice(i).every((t) => t.precision >= 0.9));
console.log(
  `lowest threshold from which letterboxed labels are right 9 times in 10: ${byThreshold[lowest]?.minScore ?? 'none'}`,
);

// The whole analysis, every word judged.
const RULE_019: ObjectRule = { minScore: 0.35, minSpeciesScore: 0.6, alsoSays: false };
const rules: [string, (p: Photo) => Promise<Keyword[]>][] = [
  [
    'before: squeezed, >= 0.35, species under 0.6 as "animal" (decision 019)',
    (p) => analysis(p, p.stretched, RULE_019),
  ],
  ['letterboxed, >= 0.35', (p) => analysis(p, p.seen.objects, RULE_019)],
  [
    `after: letterboxed, >= ${OBJECT_RULE.minScore}, with implied words (decision 071)`,
    (p) => analysis(p, p.seen.objects, OBJECT_RULE),
  ],
];
console.log(
  '\nEverything the analyzer says, judged\n| object rule | words said | precision | recall | "never" words said |\n|---|---|---|---|---|',
);
let said: Keyword[][] = [];
for (const [name, rule] of rules) {
  said = await Promise.all(photos.map(rule));
  const judged = said.map((keywords, i) => judge(LABELLED_IMAGES[i] as (typeof LABELLED_IMAGES)[number], keywords));
  const { said: count, precision, recall } = precisionRecall(judged);
  const never = judged.flatMap((j) => j.never).length;
  console.log(`| ${name} | ${count} | ${precision.toFixed(2)} | ${recall.toFixed(2)} | ${never} |`);
}

// Per photo, after: what was said (a wrong word marked ✗, a "never" word ✗!), what was missed.
console.log('\nPer photo (after)\n| photo | said | missed |\n|---|---|---|');
const captions: string[] = [];
for (const [i, keywords] of said.entries()) {
  const image = LABELLED_IMAGES[i] as (typeof LABELLED_IMAGES)[number];
  const judged = judge(image, keywords);
  const marked = keywords.map(({ keyword, score }) => {
    const mark = judged.never.includes(keyword) ? ' ✗!' : judged.wrong.includes(keyword) ? ' ✗' : '';
    return `${keyword} ${score}${mark}`;
  });
  captions.push(marked.join(', '));
  console.log(
    `| ${image.file} | ${marked.join(', ')} | ${judged.missed.map((names) => names.join('/')).join('; ') || '-'} |`,
  );
}

// Colour: the measures behind "black and white", "monochrome", "colorful" and "muted" on the
// labelled photos and on toned copies (sepia, the Colorizer demo's tint), which must be monochrome.
const toned: [string, Promise<Buffer>][] = [
  [
    'sepia camera.png',
    sharp((await fixtureImage('camera.png')).bytes)
      .toColourspace('srgb')
      .recomb(SEPIA)
      .jpeg()
      .toBuffer(),
  ],
  [
    'sepia grace_hopper.jpg',
    sharp((await fixtureImage('grace_hopper.jpg')).bytes)
      .recomb(SEPIA)
      .jpeg()
      .toBuffer(),
  ],
  // Two pipelines: in one, sharp applies greyscale() after tint() and the tint is lost.
  [
    'tinted street.jpg',
    sharp(
      await sharp((await fixtureImage('analyzer/street.jpg')).bytes)
        .greyscale()
        .toBuffer(),
    )
      .tint('#c8a27a')
      .jpeg()
      .toBuffer(),
  ],
];
console.log(
  '\nColour measures\n| image | colourfulness (H&S, lit pixels) | grey share | tone spread | mean chroma | colour words |\n|---|---|---|---|---|---|',
);
const colourWords = new Set(['black and white', 'monochrome', 'colorful', 'muted']);
const colourInputs: [string, Buffer][] = [
  ...photos.map((p) => [p.file, p.image.bytes] as [string, Buffer]),
  ...(await Promise.all(toned.map(async ([name, bytes]) => [name, await bytes] as [string, Buffer]))),
];
for (const [name, bytes] of colourInputs) {
  const pixels = await loadAnalysisPixels(bytes);
  const s = measurePixels(pixels);
  const words = imageProperties(pixels).filter((k) => colourWords.has(k.keyword));
  console.log(
    `| ${name} | ${s.colorfulness.toFixed(1)} | ${s.greyShare.toFixed(3)} | ${s.toneSpread.toFixed(4)} | ${s.meanChroma.toFixed(3)} | ${words.map((k) => `${k.keyword} ${k.score}`).join(', ') || '-'} |`,
  );
}

// Text: what PP-OCRv4 reads (every line, before the confidence threshold and the word filter) on
// rendered posters, and its time per image; the photos' words are in the table above.
const posters: [string, ImageInput][] = [
  ['poster "SUMMER SALE" 96 px PNG', await poster('SUMMER SALE')],
  ['poster "Open 24 hours" 48 px JPEG', await poster('Open 24 hours', 48, 'jpeg')],
  ['poster "Picture Palette 2026" 32 px JPEG', await poster('Picture Palette 2026', 32, 'jpeg')],
  ['poster "FRESH COFFEE" 64 px PNG', await poster('FRESH COFFEE', 64)],
];
console.log(
  `\nText read (threshold ${MIN_TEXT_SCORE}):\n| image | lines read (confidence) | keywords | ms |\n|---|---|---|---|`,
);
for (const [name, image] of posters) {
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
const kindInputs: [string, ImageInput][] = [
  ...(await Promise.all(
    Object.keys(FLAT_DRAWINGS).flatMap((name) =>
      (['png', 'jpeg'] as const).map(
        async (format) => [`drawing ${name} ${format}`, await flatDrawing(name, format)] as [string, ImageInput],
      ),
    ),
  )),
  ...photos.map((p) => [p.file, p.image] as [string, ImageInput]),
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
console.log('\n| image | analysis ms |\n|---|---|');
const times: number[] = [];
for (const [name, image] of [...posters, ...photos.map((p) => [p.file, p.image] as [string, ImageInput])]) {
  const started = performance.now();
  await analyzeImage(image);
  times.push(performance.now() - started);
  console.log(`| ${name} | ${(times.at(-1) ?? 0).toFixed(0)} |`);
}
const sorted = [...times].sort((a, b) => a - b);
console.log(
  `analysis per image: median ${(sorted[Math.floor(sorted.length / 2)] ?? 0).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
);
console.log(
  `process RSS after the runs (Human, PP-OCRv4 and nsfwjs loaded): ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MB`,
);

if (sheetPath) {
  await writeSheet(
    sheetPath,
    photos.map((p, i) => ({ bytes: p.image.bytes, caption: `${p.file.replace('analyzer/', '')}: ${captions[i]}` })),
  );
  console.log(`contact sheet: ${sheetPath}`);
}

/** Photos in a grid, each with its caption under it (SVG text), as one PNG. */
async function writeSheet(file: string, items: { bytes: Buffer; caption: string }[]) {
  const [width, height, captionHeight, columns] = [300, 220, 92, 6];
  const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const tiles = await Promise.all(
    items.map(async ({ bytes, caption }, i) => {
      const lines: string[] = [''];
      for (const word of caption.split(' ')) {
        const line = `${lines.at(-1)} ${word}`.trim();
        if (line.length > 48) lines.push(word);
        else lines[lines.length - 1] = line;
      }
      const text = lines
        .slice(0, 6)
        .map(
          (l, k) => `<text x="4" y="${14 + k * 14}" font-family="DejaVu Sans" font-size="11.5">${escapeXml(l)}</text>`,
        )
        .join('');
      const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${captionHeight}"><rect width="100%" height="100%" fill="#fff"/>${text}</svg>`;
      const [left, top] = [(i % columns) * width, Math.floor(i / columns) * (height + captionHeight)];
      const photo = await sharp(bytes).resize(width, height, { fit: 'contain', background: '#ddd' }).png().toBuffer();
      return [
        { input: photo, left, top },
        { input: Buffer.from(svg), left, top: top + height },
      ];
    }),
  );
  const rows = Math.ceil(items.length / columns);
  await sharp({
    create: { width: columns * width, height: rows * (height + captionHeight), channels: 3, background: '#fff' },
  })
    .composite(tiles.flat())
    .png()
    .toFile(file);
}

process.exit(0);
