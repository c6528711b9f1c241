// The analysed palette as files a designer's tools read: CSS custom properties, JSON, and Adobe's
// Swatch Exchange (ASE: Photoshop, Illustrator, InDesign, and most palette tools import it).
import type { Color } from '../../../../contract/tool-responses';

export type PaletteFormat = 'css' | 'json' | 'ase';

/** A colour's name as a CSS identifier part: "Dark Slate" -> "dark-slate". */
const slug = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '') || 'color';

/** `:root` custom properties named after the colours (numbered when two share a name), share noted. */
export function paletteCss(colors: Color[]): string {
  const used = new Map<string, number>();
  const lines = colors.map(({ hex, name, percentage }) => {
    const base = slug(name);
    const count = (used.get(base) ?? 0) + 1;
    used.set(base, count);
    const variable = count === 1 ? base : `${base}-${count}`;
    return `  --palette-${variable}: ${hex.toLowerCase()}; /* ${percentage}% */`;
  });
  return `:root {\n${lines.join('\n')}\n}\n`;
}

/** The colours as the analysis gives them: hex, name, percentage. */
export const paletteJson = (colors: Color[]): string =>
  `${JSON.stringify({ colors: colors.map(({ hex, name, percentage }) => ({ hex, name, percentage })) }, null, 2)}\n`;

const ASE_COLOR_ENTRY = 0x0001;
/** ASE's colour types: 0 global, 1 spot, 2 normal (process). */
const ASE_NORMAL = 2;

/**
 * Adobe Swatch Exchange, version 1.0, big-endian: "ASEF", version 1.0, the block count, then a
 * colour entry per colour: type 0x0001, the length of what follows, the name (UTF-16 code units
 * counted with the terminating zero), the model "RGB " and three 32-bit floats 0-1, the colour type.
 */
export function paletteAse(colors: Color[]): Uint8Array<ArrayBuffer> {
  const blocks = colors.map(({ hex, name }) => {
    // A JavaScript string already is UTF-16 code units.
    const units = Array.from({ length: name.length }, (_, i) => name.charCodeAt(i));
    const length = 2 + (units.length + 1) * 2 + 4 + 3 * 4 + 2;
    const block = new DataView(new ArrayBuffer(2 + 4 + length));
    let at = 0;
    const u16 = (value: number) => {
      block.setUint16(at, value);
      at += 2;
    };
    u16(ASE_COLOR_ENTRY);
    block.setUint32(at, length);
    at += 4;
    u16(units.length + 1);
    for (const unit of units) u16(unit);
    u16(0);
    for (const c of 'RGB ') {
      block.setUint8(at, c.charCodeAt(0));
      at += 1;
    }
    for (const offset of [1, 3, 5]) {
      block.setFloat32(at, Number.parseInt(hex.slice(offset, offset + 2), 16) / 255);
      at += 4;
    }
    u16(ASE_NORMAL);
    return new Uint8Array(block.buffer);
  });
  const header = new DataView(new ArrayBuffer(12));
  for (const [i, byte] of [0x41, 0x53, 0x45, 0x46].entries()) header.setUint8(i, byte); // "ASEF"
  header.setUint16(4, 1);
  header.setUint16(6, 0);
  header.setUint32(8, blocks.length);
  const file = new Uint8Array(12 + blocks.reduce((n, b) => n + b.length, 0));
  file.set(new Uint8Array(header.buffer), 0);
  let offset = 12;
  for (const block of blocks) {
    file.set(block, offset);
    offset += block.length;
  }
  return file;
}

/** The palette in `format` as a file to save. */
export function paletteFile(colors: Color[], format: PaletteFormat): { blob: Blob; fileName: string } {
  if (format === 'ase') {
    return { blob: new Blob([paletteAse(colors)], { type: 'application/octet-stream' }), fileName: 'palette.ase' };
  }
  if (format === 'json')
    return { blob: new Blob([paletteJson(colors)], { type: 'application/json' }), fileName: 'palette.json' };
  return { blob: new Blob([paletteCss(colors)], { type: 'text/css' }), fileName: 'palette.css' };
}
