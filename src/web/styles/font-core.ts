// The characters of the core Inter file (issue 18: fonts): printable ASCII and the punctuation our
// pages write. One list for the file (scripts/make-font-subset.ts) and its CSS unicode-range
// (styles/tokens.css, checked by scripts/make-font-subset.test.ts).
/** Beside the stylesheets, so Vite gives it a hashed name under /assets (cached for good). */
export const CORE_FONT_FILE = 'fonts/inter-core.woff2';

/** Code point ranges, inclusive: what the core file has glyphs for. */
export const CORE_FONT_RANGES: readonly (readonly [number, number])[] = [
  [0x20, 0x7e], // printable ASCII
  [0xa0, 0xa0], // no-break space
  [0xa2, 0xa2], // ¢ (price per token)
  [0xa9, 0xa9], // ©
  [0xb7, 0xb7], // · (titles: "Background Remover · Picture Palette")
  [0xd7, 0xd7], // × (sizes: 1024 × 1024)
  [0x2013, 0x2014], // – —
  [0x2018, 0x2019], // ‘ ’
  [0x201c, 0x201d], // “ ”
  [0x2022, 0x2022], // •
  [0x2026, 0x2026], // …
  [0x2212, 0x2212], // − (the FAQ's minus)
];

/** The ranges as a CSS unicode-range value. */
export const coreUnicodeRange = (): string =>
  CORE_FONT_RANGES.map(([from, to]) => {
    const hex = (n: number) => n.toString(16).toUpperCase().padStart(4, '0');
    return from === to ? `U+${hex(from)}` : `U+${hex(from)}-${hex(to)}`;
  }).join(', ');
