// Clean edges (issue 58 item 2, decision 080): a subject composited over red with a soft edge of
// known alpha; the cleaned cut-out's edge has lost most of the red, its opaque and transparent
// pixels are as they were.
import { describe, expect, it } from 'vitest';
import { withCleanEdges } from './edge-colours';

const [WIDTH, HEIGHT] = [160, 120];
const RED = [230, 20, 20];
/** The true foreground: a blue-grey that varies across the picture (not one flat colour). */
const foreground = (x: number, y: number) => [70 + (x % 40), 110 + (y % 30), 180];
/** Opaque left of x = 64, a soft ramp 12 px wide to transparent, ragged (hairy) row by row. */
const alphaAt = (x: number, y: number) => Math.min(1, Math.max(0, (76 - x + ((y * 7) % 11) - 5) / 12));

function compositeOverRed(): Uint8Array {
  const rgba = new Uint8Array(WIDTH * HEIGHT * 4);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const at = (y * WIDTH + x) * 4;
      const a = alphaAt(x, y);
      const fore = foreground(x, y);
      for (let c = 0; c < 3; c++) rgba[at + c] = Math.round(a * (fore[c] ?? 0) + (1 - a) * (RED[c] ?? 0));
      rgba[at + 3] = Math.round(a * 255);
    }
  }
  return rgba;
}

/** The mean excess of red over the true foreground at the edge (alpha 0.05-0.95). */
function redCast(rgba: Uint8Array): number {
  let [sum, count] = [0, 0];
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const a = (rgba[(y * WIDTH + x) * 4 + 3] ?? 0) / 255;
      if (a <= 0.05 || a >= 0.95) continue;
      sum += (rgba[(y * WIDTH + x) * 4] ?? 0) - (foreground(x, y)[0] ?? 0);
      count++;
    }
  }
  return sum / count;
}

describe('clean edges', () => {
  it("takes most of the old background's red out of the soft edge, and leaves the rest as it was", async () => {
    const before = compositeOverRed();
    const { data: after, width, height } = await withCleanEdges({ data: before, width: WIDTH, height: HEIGHT });
    expect([width, height]).toEqual([WIDTH, HEIGHT]);
    expect(redCast(before)).toBeGreaterThan(40);
    expect(redCast(after)).toBeLessThan(redCast(before) / 5);
    let [kept, pixels] = [0, 0];
    for (let i = 0; i < WIDTH * HEIGHT; i++) {
      const alpha = before[i * 4 + 3] ?? 0;
      if (alpha !== 255 && alpha !== 0) continue;
      pixels++;
      if ([0, 1, 2, 3].every((c) => after[i * 4 + c] === before[i * 4 + c])) kept++;
    }
    expect(pixels).toBeGreaterThan(WIDTH * HEIGHT * 0.5);
    expect(kept).toBe(pixels);
  });

  it('answers each of several cut-outs sent at once with its own pixels', async () => {
    const blank = (value: number) => new Uint8Array(8 * 8 * 4).fill(value);
    const answers = await Promise.all(
      [1, 2, 3].map((value) => withCleanEdges({ data: blank(value * 50), width: 8, height: 8 })),
    );
    expect(answers.map((answer) => answer.data[0])).toEqual([50, 100, 150]);
  });
});
