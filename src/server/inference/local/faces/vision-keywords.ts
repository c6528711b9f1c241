// Keywords for the Image Analyzer from the local vision models: COCO objects (centernet), faces
// (blazeface) and facial expressions (the emotion model). Age and gender are left out: faceres got
// them wrong on the test portraits.
import type { Keyword } from '../../provider';
import type { RawImage } from '../raw-image';
import { runHuman } from './human-runtime';

// Measured on the labelled test images (labelled-images.ts, `npm run bench:analyzer`, decision 019):
// the wrong guesses scored up to 0.32 ("clock" for a rocket, "tie", "car"), the right ones from 0.45.
export const MIN_OBJECT_SCORE = 0.35;
// centernet tells an animal from the rest well but mixes up species (the cat was "dog" at 0.47):
// below this score the species is not named, only "animal".
export const MIN_SPECIES_SCORE = 0.6;
const ANIMALS = new Set(['bird', 'cat', 'dog', 'horse', 'sheep', 'cow', 'elephant', 'bear', 'zebra', 'giraffe']);
// The emotion model spreads its scores: only a clear winner is worth a keyword.
const MIN_EXPRESSION_SCORE = 0.6;
// A face this tall relative to the image makes it a portrait.
const PORTRAIT_FACE_SHARE = 0.2;

const EXPRESSION_KEYWORDS: Record<string, string[]> = {
  happy: ['smiling', 'happy'],
  surprise: ['surprised'],
  sad: ['sad'],
  angry: ['angry'],
  fear: ['fearful'],
  disgust: ['disgusted'],
  neutral: ['neutral expression'],
};

/** centernet's guesses as keywords: the confident ones, an unsure species as "animal". */
export function objectKeywords(objects: { label: string; score: number }[], minScore = MIN_OBJECT_SCORE): Keyword[] {
  return objects
    .filter((object) => object.score >= minScore)
    .map(({ label, score }) => ({
      keyword: ANIMALS.has(label) && score < MIN_SPECIES_SCORE ? 'animal' : label,
      score,
    }));
}

/** Keywords with scores 0-1, best first, each keyword once, for the upright decoded image. */
export async function visionKeywords(raw: RawImage, signal?: AbortSignal): Promise<Keyword[]> {
  const result = await runHuman(raw, 'faces-expressions-objects', signal);
  const best = new Map<string, number>();
  const add = (keyword: string, score: number) => {
    best.set(keyword, Math.max(best.get(keyword) ?? 0, Math.min(1, Math.max(0, score))));
  };

  for (const { keyword, score } of objectKeywords(result.object)) add(keyword, score);
  for (const face of result.face) {
    add('face', face.score);
    add('person', face.score);
    if (face.box[3] / raw.height >= PORTRAIT_FACE_SHARE) add('portrait', face.score);
    for (const { emotion, score } of face.emotion ?? []) {
      if (score < MIN_EXPRESSION_SCORE) continue;
      for (const keyword of EXPRESSION_KEYWORDS[emotion] ?? []) add(keyword, score * face.score);
    }
  }
  if (result.face.length >= 2) add('people', Math.min(...result.face.slice(0, 2).map((f) => f.score)));

  return [...best]
    .map(([keyword, score]) => ({ keyword, score: Math.round(score * 100) / 100 }))
    .sort((a, b) => b.score - a.score || a.keyword.localeCompare(b.keyword));
}
