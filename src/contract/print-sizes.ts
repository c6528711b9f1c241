// The print sizes a result can be made for (issue 58: print shops ask for a size at a DPI): their
// paper sides, portrait, and what a side is in pixels at a DPI. The Image Upscaler's `printSize`
// takes these ids; the page names and measures them from here too.

/** Dots per inch a print size is asked at: 72 (a screen's old measure) to 1200 (Photoroom's most); 300 by default, a photo print's. */
export const PRINT_DPI = { min: 72, max: 1200, default: 300 } as const;

export const MM_PER_INCH = 25.4;

/** A paper size, portrait: its short and long sides in millimetres (inch sizes converted exactly). */
export type PrintSize = { label: string; shortMm: number; longMm: number };

const inches = (label: string, short: number, long: number): PrintSize => ({
  label,
  shortMm: short * MM_PER_INCH,
  longMm: long * MM_PER_INCH,
});

export const PRINT_SIZES = {
  a4: { label: 'A4', shortMm: 210, longMm: 297 },
  a3: { label: 'A3', shortMm: 297, longMm: 420 },
  letter: inches('US Letter', 8.5, 11),
  '4x6': inches('4 x 6 in', 4, 6),
  '5x7': inches('5 x 7 in', 5, 7),
  '8x10': inches('8 x 10 in', 8, 10),
  '13x18cm': { label: '13 x 18 cm', shortMm: 130, longMm: 180 },
} as const satisfies Record<string, PrintSize>;

export type PrintSizeId = keyof typeof PRINT_SIZES;
export const PRINT_SIZE_IDS = Object.keys(PRINT_SIZES) as [PrintSizeId, ...PrintSizeId[]];

/** Pixels for `mm` at `dpi`, to the nearest (A4 at 300 DPI: 2480 x 3508, as print shops state it). */
export const pixelsAt = (mm: number, dpi: number) => Math.round((mm / MM_PER_INCH) * dpi);

/** A print size's short and long sides in pixels at `dpi`. */
export function printPixels(id: PrintSizeId, dpi: number): { short: number; long: number } {
  const size = PRINT_SIZES[id];
  return { short: pixelsAt(size.shortMm, dpi), long: pixelsAt(size.longMm, dpi) };
}

/** The print's sides as people name them: "21.0 x 29.7 cm (8.27 x 11.69 in)", in the orientation given. */
export function printMeasures(id: PrintSizeId, landscape: boolean): string {
  const { shortMm, longMm } = PRINT_SIZES[id];
  const [w, h] = landscape ? [longMm, shortMm] : [shortMm, longMm];
  const cm = (mm: number) => (mm / 10).toFixed(1);
  const inch = (mm: number) => (mm / MM_PER_INCH).toFixed(2).replace(/\.?0+$/, '');
  return `${cm(w)} x ${cm(h)} cm (${inch(w)} x ${inch(h)} in)`;
}
