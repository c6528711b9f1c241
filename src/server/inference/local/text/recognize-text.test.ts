import { describe, expect, it } from 'vitest';
import { ctcDecode, LINE_HEIGHT, lineWidth, MAX_LINE_WIDTH } from './recognize-text';

describe('line recognition: CTC decoding and the crop size', () => {
  it('merges repeats, drops blanks, keeps a letter repeated across a blank, and averages the kept scores', () => {
    const characters = ['', 'o', 'l', 'e', 'h'];
    // h h _ e l l _ l o  ->  "hello"
    const best = Int32Array.from([4, 4, 0, 3, 2, 2, 0, 2, 1]);
    const bestScore = Float32Array.from([0.9, 0.8, 1, 1, 0.8, 0.7, 1, 0.6, 0.9]);
    const { text, score } = ctcDecode(best, bestScore, characters);
    expect(text).toBe('hello');
    expect(score).toBeCloseTo((0.9 + 1 + 0.8 + 0.6 + 0.9) / 5, 5);
  });

  it('reads nothing, with confidence 0, from blanks alone', () => {
    expect(ctcDecode(new Int32Array(5), new Float32Array(5).fill(1), ['', 'a'])).toEqual({ text: '', score: 0 });
  });

  it('keeps a line its proportions at height 48, within bounds', () => {
    expect(lineWidth(200, 48)).toBe(200);
    expect(lineWidth(100, 100)).toBe(LINE_HEIGHT);
    expect(lineWidth(10, 100)).toBe(LINE_HEIGHT / 3);
    expect(lineWidth(100_000, 48)).toBe(MAX_LINE_WIDTH);
  });
});
