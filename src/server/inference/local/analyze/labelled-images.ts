// The small labelled set the analyzer's object labels are measured on (test/fixtures/images, the
// project's shared test photos):
// what a person would name in each, in the object detector's vocabulary (COCO classes plus
// "animal"), and what is not wrong to say though not expected.
import type { Keyword } from '../../provider';

export type LabelledImage = {
  file: string;
  /** Each entry is one thing in the image; any of its names counts as finding it. */
  expected: string[][];
  /** Also right, but not required (a detail, or a coarser name). */
  acceptable: string[];
};

export const LABELLED_IMAGES: LabelledImage[] = [
  { file: 'astronaut.png', expected: [['person']], acceptable: [] },
  { file: 'camera.png', expected: [['person']], acceptable: [] },
  { file: 'chelsea.png', expected: [['cat', 'animal']], acceptable: [] },
  { file: 'coffee.png', expected: [['cup']], acceptable: ['spoon', 'bowl', 'dining table'] },
  // She wears a black tie with the uniform.
  { file: 'grace_hopper.jpg', expected: [['person']], acceptable: ['tie'] },
  { file: 'hubble_deep_field.jpg', expected: [], acceptable: [] },
  // COCO has no rocket: nothing is the right answer.
  { file: 'rocket.jpg', expected: [], acceptable: [] },
];

export type LabelScore = { said: number; right: number; expected: number; found: number };

/** How many labels were said and right, and how many expected things were found, for one image. */
export function scoreLabels(image: LabelledImage, said: Keyword[]): LabelScore {
  const words = new Set(said.map((k) => k.keyword));
  const allowed = new Set([...image.expected.flat(), ...image.acceptable]);
  return {
    said: words.size,
    right: [...words].filter((w) => allowed.has(w)).length,
    expected: image.expected.length,
    found: image.expected.filter((names) => names.some((n) => words.has(n))).length,
  };
}

/** Precision (right / said) and recall (found / expected) over the set; 1 when nothing was said. */
export function precisionRecall(scores: LabelScore[]): { precision: number; recall: number } {
  const sum = (key: keyof LabelScore) => scores.reduce((total, s) => total + s[key], 0);
  return {
    precision: sum('said') === 0 ? 1 : sum('right') / sum('said'),
    recall: sum('expected') === 0 ? 1 : sum('found') / sum('expected'),
  };
}
