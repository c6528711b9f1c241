// The colour difference bench/colour reports: CIEDE2000 against the 34 test pairs Sharma, Wu and
// Dalal published with the formula (their Table 1), to the 4 decimals they give, and sRGB to Lab at
// known points.
import { describe, expect, it } from 'vitest';
import { ciede2000, srgbDeltaE, srgbToLab } from './ciede2000';

type Triple = [number, number, number];
// [Lab 1, Lab 2, CIEDE2000]. Pairs 9-15 straddle the hue angle's wrap-around (a near 0, hues either
// side of 0/360 or 90/270); 7 and 8 have a neutral colour, whose hue is 0 by the paper's rule.
const SHARMA_PAIRS: [Triple, Triple, number][] = [
  [[50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425],
  [[50.0, 3.1571, -77.2803], [50.0, 0.0, -82.7485], 2.8615],
  [[50.0, 2.8361, -74.02], [50.0, 0.0, -82.7485], 3.4412],
  [[50.0, -1.3802, -84.2814], [50.0, 0.0, -82.7485], 1.0],
  [[50.0, -1.1848, -84.8006], [50.0, 0.0, -82.7485], 1.0],
  [[50.0, -0.9009, -85.5211], [50.0, 0.0, -82.7485], 1.0],
  [[50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669],
  [[50.0, -1.0, 2.0], [50.0, 0.0, 0.0], 2.3669],
  [[50.0, 2.49, -0.001], [50.0, -2.49, 0.0009], 7.1792],
  [[50.0, 2.49, -0.001], [50.0, -2.49, 0.001], 7.1792],
  [[50.0, 2.49, -0.001], [50.0, -2.49, 0.0011], 7.2195],
  [[50.0, 2.49, -0.001], [50.0, -2.49, 0.0012], 7.2195],
  [[50.0, -0.001, 2.49], [50.0, 0.0009, -2.49], 4.8045],
  [[50.0, -0.001, 2.49], [50.0, 0.001, -2.49], 4.8045],
  [[50.0, -0.001, 2.49], [50.0, 0.0011, -2.49], 4.7461],
  [[50.0, 2.5, 0.0], [50.0, 0.0, -2.5], 4.3065],
  [[50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492],
  [[50.0, 2.5, 0.0], [61.0, -5.0, 29.0], 22.8977],
  [[50.0, 2.5, 0.0], [56.0, -27.0, -3.0], 31.903],
  [[50.0, 2.5, 0.0], [58.0, 24.0, 15.0], 19.4535],
  [[50.0, 2.5, 0.0], [50.0, 3.1736, 0.5854], 1.0],
  [[50.0, 2.5, 0.0], [50.0, 3.2972, 0.0], 1.0],
  [[50.0, 2.5, 0.0], [50.0, 1.8634, 0.5757], 1.0],
  [[50.0, 2.5, 0.0], [50.0, 3.2592, 0.335], 1.0],
  [[60.2574, -34.0099, 36.2677], [60.4626, -34.1751, 39.4387], 1.2644],
  [[63.0109, -31.0961, -5.8663], [62.8187, -29.7946, -4.0864], 1.263],
  [[61.2901, 3.7196, -5.3901], [61.4292, 2.248, -4.962], 1.8731],
  [[35.0831, -44.1164, 3.7933], [35.0232, -40.0716, 1.5901], 1.8645],
  [[22.7233, 20.0904, -46.694], [23.0331, 14.973, -42.5619], 2.0373],
  [[36.4612, 47.858, 18.3852], [36.2715, 50.5065, 21.2231], 1.4146],
  [[90.8027, -2.0831, 1.441], [91.1528, -1.6435, 0.0447], 1.4441],
  [[90.9257, -0.5406, -0.9208], [88.6381, -0.8985, -0.7239], 1.5381],
  [[6.7747, -0.2908, -2.4247], [5.8714, -0.0985, -2.2286], 0.6377],
  [[2.0776, 0.0795, -1.135], [0.9033, -0.0636, -0.5514], 0.9082],
];

const lab = ([L, a, b]: Triple) => ({ L, a, b });

describe('CIEDE2000', () => {
  it.each(SHARMA_PAIRS.map(([first, second, want], i) => [i + 1, first, second, want] as const))(
    "gives Sharma's pair %i its published difference",
    (_pair, first, second, want) => {
      expect(ciede2000(lab(first), lab(second)).toFixed(4)).toBe(want.toFixed(4));
      // The formula is symmetric; a mean hue taken the wrong way round would not be.
      expect(ciede2000(lab(second), lab(first))).toBeCloseTo(ciede2000(lab(first), lab(second)), 10);
    },
  );

  it('is 0 for a colour against itself', () => {
    expect(ciede2000(lab([50, 20, -30]), lab([50, 20, -30]))).toBe(0);
  });
});

describe('sRGB to Lab', () => {
  it('puts white at L 100 and the greys on the neutral axis', () => {
    const white = srgbToLab([255, 255, 255]);
    expect(white.L).toBeCloseTo(100, 6);
    for (const value of [0, 18, 128, 200]) {
      const grey = srgbToLab([value, value, value]);
      expect(Math.abs(grey.a) + Math.abs(grey.b)).toBeLessThan(1e-9);
    }
    expect(srgbToLab([0, 0, 0]).L).toBe(0);
    // sRGB 119 is the mid grey of L 50 (18.4% luminance).
    expect(srgbToLab([119, 119, 119]).L).toBeCloseTo(50, 0);
  });

  it('gives the primaries their known Lab (D65)', () => {
    const red = srgbToLab([255, 0, 0]);
    expect([red.L, red.a, red.b].map((v) => Math.round(v * 10) / 10)).toEqual([53.2, 80.1, 67.2]);
    const blue = srgbToLab([0, 0, 255]);
    expect([blue.L, blue.a, blue.b].map((v) => Math.round(v * 10) / 10)).toEqual([32.3, 79.2, -107.9]);
  });

  it('compares sRGB colours: one step of a channel is well under a visible difference', () => {
    expect(srgbDeltaE([200, 100, 50], [200, 100, 50])).toBe(0);
    expect(srgbDeltaE([200, 100, 50], [201, 100, 50])).toBeLessThan(0.5);
    expect(srgbDeltaE([255, 0, 0], [0, 0, 255])).toBeGreaterThan(40);
  });
});
