// The labelled photos the analyzer's keywords are measured on (test/fixtures/images/analyzer/
// labels.json, licences in LICENSES.md beside it): what a person would accept the analyzer saying
// about each, and how its words are judged against that (`npm run bench:analyzer`, decision 071).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Keyword } from '../../provider';
import { FIXTURE_IMAGES } from '../faces/fixture-image';

export type LabelledImage = {
  /** Relative to test/fixtures/images. */
  file: string;
  /** Each entry is one thing a person would name; any of its names counts as finding it. */
  expected: string[][];
  /** Also right, but not required (a detail, a coarser name, a property). */
  accepted: string[];
  /** Plainly wrong: the analyzer must never say these about this photo. */
  never: string[];
};

export const LABELLED_IMAGES: LabelledImage[] = JSON.parse(
  readFileSync(path.join(FIXTURE_IMAGES, 'analyzer', 'labels.json'), 'utf8'),
).photos;

/** Words that state a measured fact of the file (its shape, its transparency): not judged. */
const FACT_WORDS = new Set(['landscape orientation', 'portrait orientation', 'square', 'transparent']);

export type Judgement = {
  /** The judged words said that a person accepts. */
  right: string[];
  /** The judged words said that a person does not accept ("never" words among them). */
  wrong: string[];
  /** The "never" words said. */
  never: string[];
  /** The expected things found / not found. */
  found: number;
  missed: string[][];
};

/** The words said about one labelled photo, judged. */
export function judge(image: LabelledImage, said: Keyword[]): Judgement {
  const words = [...new Set(said.map((k) => k.keyword))].filter((w) => !FACT_WORDS.has(w));
  const allowed = new Set([...image.expected.flat(), ...image.accepted]);
  const found = image.expected.filter((names) => names.some((n) => words.includes(n)));
  return {
    right: words.filter((w) => allowed.has(w)),
    wrong: words.filter((w) => !allowed.has(w)),
    never: words.filter((w) => image.never.includes(w)),
    found: found.length,
    missed: image.expected.filter((names) => !found.includes(names)),
  };
}

/** Precision (right words / words said) and recall (things found / things expected) over a set; 1 when none. */
export function precisionRecall(judgements: Judgement[]): { said: number; precision: number; recall: number } {
  const right = judgements.reduce((n, j) => n + j.right.length, 0);
  const said = right + judgements.reduce((n, j) => n + j.wrong.length, 0);
  const found = judgements.reduce((n, j) => n + j.found, 0);
  const expected = found + judgements.reduce((n, j) => n + j.missed.length, 0);
  return { said, precision: said === 0 ? 1 : right / said, recall: expected === 0 ? 1 : found / expected };
}
