// Keywords for the Image Analyzer from the local vision models: COCO objects (centernet), faces
// (blazeface) and facial expressions (the emotion model), and the words they support: a portrait,
// people, a close-up, food and drink. Age and gender are left out: faceres got them wrong on the
// test portraits. Every threshold here is measured on the labelled photos
// (test/fixtures/images/analyzer/labels.json, `npm run bench:analyzer`, decision 071).
import type { Keyword } from '../../provider';
import { fromRaw, type RawImage } from '../raw-image';
import { runHuman } from './human-runtime';

/** [x, y, width, height] in the image's pixels. */
type Box = [number, number, number, number];
export type SeenObject = { label: string; score: number; box: Box };
export type SeenFace = { score: number; box: Box; emotion?: { emotion: string; score: number }[] };
/** What the models found in one image, and its size. */
export type Seen = { width: number; height: number; objects: SeenObject[]; faces: SeenFace[] };

// centernet's guesses are kept from this score, the lowest from which they (and the words they
// imply) are right at least 9 times in 10: `npm run bench:analyzer` on the 44 labelled photos,
// letterboxed, gave precision 1.00 from 0.55 (13 words), 0.83 from 0.50 (23 words: a capacitor
// called a clock at 0.52, a retina an umbrella and sweets an orange, so fruit, at 0.51), 0.76 from
// 0.35 (decision 071).
export const MIN_OBJECT_SCORE = 0.55;
// centernet tells an animal from the rest well but mixes up species (the cat was "dog" at 0.47 on
// the stretched image): below this score the species is not named, only "animal" (decision 019).
export const MIN_SPECIES_SCORE = 0.6;
const ANIMALS = new Set(['bird', 'cat', 'dog', 'horse', 'sheep', 'cow', 'elephant', 'bear', 'zebra', 'giraffe']);
// What a kept object says besides its own name. A cup, a wine glass or a bottle holds a drink, a
// bowl food, COCO's fruit and dishes are food. "coffee" is never said: centernet has no such class,
// and a cup of tea or of cocoa looks the same from its colours.
const ALSO_SAYS: Record<string, string[]> = {
  cup: ['drink'],
  'wine glass': ['drink'],
  bottle: ['drink'],
  bowl: ['food'],
  banana: ['fruit', 'food'],
  apple: ['fruit', 'food'],
  orange: ['fruit', 'food'],
  broccoli: ['vegetable', 'food'],
  carrot: ['vegetable', 'food'],
  sandwich: ['food'],
  'hot dog': ['food'],
  pizza: ['food'],
  donut: ['food'],
  cake: ['food'],
};
// One kept object (not a person: that is a portrait) whose box covers this share of the frame
// makes the image a close-up.
const CLOSE_UP_SHARE = 0.5;
// A single face this tall relative to the image makes it a portrait.
const PORTRAIT_FACE_SHARE = 0.2;
// The emotion model spreads its scores: only a clear winner is worth a keyword, and only on a face
// at least this many pixels tall (it reads a 64 px crop: a smaller face is upscaled noise, as the
// 28 px face called "sad" at 0.90 in the labelled set).
const MIN_EXPRESSION_SCORE = 0.6;
const MIN_EXPRESSION_FACE_PX = 48;

const EXPRESSION_KEYWORDS: Record<string, string[]> = {
  happy: ['smiling', 'happy'],
  surprise: ['surprised'],
  sad: ['sad'],
  angry: ['angry'],
  fear: ['fearful'],
  disgust: ['disgusted'],
  neutral: ['neutral expression'],
};

/** The rule turning centernet's guesses into keywords (the benchmark varies it). */
export type ObjectRule = { minScore: number; minSpeciesScore: number; alsoSays: boolean };
export const OBJECT_RULE: ObjectRule = {
  minScore: MIN_OBJECT_SCORE,
  minSpeciesScore: MIN_SPECIES_SCORE,
  alsoSays: true,
};

/** centernet's guesses as keywords: the confident ones, an unsure species as "animal", and what they imply. */
export function objectKeywords(seen: Pick<Seen, 'width' | 'height' | 'objects'>, rule = OBJECT_RULE): Keyword[] {
  const kept = seen.objects.filter((object) => object.score >= rule.minScore);
  const keywords: Keyword[] = [];
  for (const { label, score } of kept) {
    keywords.push({ keyword: ANIMALS.has(label) && score < rule.minSpeciesScore ? 'animal' : label, score });
    if (!rule.alsoSays) continue;
    for (const keyword of ALSO_SAYS[label] ?? []) keywords.push({ keyword, score });
  }
  if (rule.alsoSays) {
    const frame = seen.width * seen.height;
    const subject = kept.find((o) => o.label !== 'person' && (o.box[2] * o.box[3]) / frame >= CLOSE_UP_SHARE);
    if (subject) keywords.push({ keyword: 'close-up', score: subject.score });
    const people = kept.filter((o) => o.label === 'person');
    if (people.length >= 2)
      keywords.push({ keyword: 'people', score: Math.min(...people.slice(0, 2).map((p) => p.score)) });
  }
  return keywords;
}

/** Faces as keywords: a face, a person, a portrait when one face is large, expressions on large faces. */
export function faceKeywords(seen: Pick<Seen, 'height' | 'faces'>): Keyword[] {
  const keywords: Keyword[] = [];
  for (const face of seen.faces) {
    keywords.push({ keyword: 'face', score: face.score }, { keyword: 'person', score: face.score });
    if (face.box[3] < MIN_EXPRESSION_FACE_PX) continue;
    for (const { emotion, score } of face.emotion ?? []) {
      if (score < MIN_EXPRESSION_SCORE) continue;
      for (const keyword of EXPRESSION_KEYWORDS[emotion] ?? []) keywords.push({ keyword, score: score * face.score });
    }
  }
  const [only] = seen.faces;
  if (seen.faces.length === 1 && only && only.box[3] / seen.height >= PORTRAIT_FACE_SHARE) {
    keywords.push({ keyword: 'portrait', score: only.score });
  }
  if (seen.faces.length >= 2) {
    keywords.push({ keyword: 'people', score: Math.min(...seen.faces.slice(0, 2).map((f) => f.score)) });
  }
  return keywords;
}

/** Each keyword once (its best score, within 0-1, two decimals), best first. */
function bestOnce(keywords: Keyword[]): Keyword[] {
  const best = new Map<string, number>();
  for (const { keyword, score } of keywords) {
    best.set(keyword, Math.max(best.get(keyword) ?? 0, Math.min(1, Math.max(0, score))));
  }
  return [...best]
    .map(([keyword, score]) => ({ keyword, score: Math.round(score * 100) / 100 }))
    .sort((a, b) => b.score - a.score || a.keyword.localeCompare(b.keyword));
}

/** The keywords for what the models found. */
export function keywordsFromSeen(seen: Seen, rule = OBJECT_RULE): Keyword[] {
  return bestOnce([...objectKeywords(seen, rule), ...faceKeywords(seen)]);
}

/** centernet's input side: it squeezes whatever it is given to this square. */
const CENTERNET_SIDE = 512;

/**
 * centernet's guesses on the image letterboxed to its square input (reduced with sharp, mid-grey
 * bars), boxes in the image's own pixels. Squeezed instead, a 3:2 photo lost its right labels (the
 * coffee cup 0.45 instead of 0.60) and kept wrong ones (the rocket's "clock" 0.32).
 */
export async function detectObjects(raw: RawImage, signal?: AbortSignal): Promise<SeenObject[]> {
  const scale = CENTERNET_SIDE / Math.max(raw.width, raw.height);
  const reduced = await fromRaw(raw)
    .removeAlpha()
    .resize(Math.max(1, Math.round(raw.width * scale)), Math.max(1, Math.round(raw.height * scale)), { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const left = Math.floor((CENTERNET_SIDE - reduced.info.width) / 2);
  const top = Math.floor((CENTERNET_SIDE - reduced.info.height) / 2);
  const square = await fromRaw({
    data: reduced.data,
    width: reduced.info.width,
    height: reduced.info.height,
    channels: 3,
  })
    .extend({
      left,
      top,
      right: CENTERNET_SIDE - reduced.info.width - left,
      bottom: CENTERNET_SIDE - reduced.info.height - top,
      background: { r: 128, g: 128, b: 128 },
    })
    .raw()
    .toBuffer();
  const input: RawImage = { data: square, width: CENTERNET_SIDE, height: CENTERNET_SIDE, channels: 3 };
  const { object } = await runHuman(input, 'objects', signal);
  const [fx, fy] = [raw.width / reduced.info.width, raw.height / reduced.info.height];
  return object.map(({ label, score, box: [x, y, w, h] }) => {
    const x0 = Math.max(0, (x - left) * fx);
    const y0 = Math.max(0, (y - top) * fy);
    const x1 = Math.min(raw.width, (x - left + w) * fx);
    const y1 = Math.min(raw.height, (y - top + h) * fy);
    return { label, score, box: [x0, y0, Math.max(0, x1 - x0), Math.max(0, y1 - y0)] };
  });
}

/** What the models see in the upright decoded image: faces as it is, objects letterboxed. */
export async function seeInImage(raw: RawImage, signal?: AbortSignal): Promise<Seen> {
  const { face } = await runHuman(raw, 'faces-expressions', signal);
  const objects = await detectObjects(raw, signal);
  return { width: raw.width, height: raw.height, objects, faces: face };
}

/** Keywords with scores 0-1, best first, each keyword once, for the upright decoded image. */
export async function visionKeywords(raw: RawImage, signal?: AbortSignal): Promise<Keyword[]> {
  return keywordsFromSeen(await seeInImage(raw, signal));
}
