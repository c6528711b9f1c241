// The line recogniser's pre- and post-processing (PaddleOCR's CRNN/SVTR input and CTC decoding):
// a cropped line at height 48, and the greedy decoding of its per-step character probabilities.

/** The recogniser's input height. */
export const LINE_HEIGHT = 48;
/** Longer lines are squeezed to this width, to bound a run's time (about 80 characters). */
export const MAX_LINE_WIDTH = 1280;

/** The width a `width` x `height` crop gets at LINE_HEIGHT. */
export const lineWidth = (width: number, height: number) =>
  Math.min(MAX_LINE_WIDTH, Math.max(LINE_HEIGHT / 3, Math.ceil((LINE_HEIGHT * width) / height)));

/** Planar BGR floats in [-1, 1] from packed RGB pixels. */
export function toRecognizerInput(rgb: Buffer, width: number, height: number): Float32Array {
  const plane = width * height;
  const input = new Float32Array(plane * 3);
  for (let p = 0; p < plane; p += 1) {
    for (let c = 0; c < 3; c += 1) input[c * plane + p] = (rgb[p * 3 + (2 - c)] ?? 0) / 127.5 - 1;
  }
  return input;
}

/**
 * CTC greedy decoding: the likeliest character at each step, repeats merged, blanks (index 0)
 * dropped. The confidence is the mean probability of the characters kept (PaddleOCR's own).
 */
export function ctcDecode(
  probabilities: Float32Array,
  steps: number,
  classes: number,
  characters: string[],
): { text: string; score: number } {
  let text = '';
  let total = 0;
  let kept = 0;
  let previous = -1;
  for (let t = 0; t < steps; t += 1) {
    let best = 0;
    let bestP = -1;
    for (let c = 0; c < classes; c += 1) {
      const p = probabilities[t * classes + c] ?? 0;
      if (p > bestP) [best, bestP] = [c, p];
    }
    if (best !== 0 && best !== previous) {
      text += characters[best] ?? '';
      total += bestP;
      kept += 1;
    }
    previous = best;
  }
  return { text, score: kept === 0 ? 0 : total / kept };
}
