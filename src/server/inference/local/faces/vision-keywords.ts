// Keywords for the Image Analyzer from the local vision models: COCO objects (centernet), faces
// (blazeface) and facial expressions (the emotion model). Age and gender are left out: faceres got
// them wrong on the test portraits.
import type { Keyword } from '../../provider';
import type { RawImage } from '../raw-image';
import { runHuman } from './human-runtime';

// centernet's labels below this score were mostly wrong on the fixtures (a 0.26 "tie", a 0.21 "car").
const MIN_OBJECT_SCORE = 0.3;
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

/** Keywords with scores 0-1, best first, each keyword once, for the upright decoded image. */
export async function visionKeywords(raw: RawImage, signal?: AbortSignal): Promise<Keyword[]> {
  const result = await runHuman(raw, 'faces-expressions-objects', signal);
  const best = new Map<string, number>();
  const add = (keyword: string, score: number) => {
    best.set(keyword, Math.max(best.get(keyword) ?? 0, Math.min(1, Math.max(0, score))));
  };

  for (const object of result.object) {
    if (object.score >= MIN_OBJECT_SCORE) add(object.label, object.score);
  }
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
