import { describe, expect, it } from 'vitest';
import { paletteAse, paletteCss, paletteJson } from './palette-export';

const colors = [
  { hex: '#FF8000', name: 'Orange', percentage: 60 },
  { hex: '#13111a', name: 'Dark Night', percentage: 30 },
  { hex: '#13111b', name: 'Dark night', percentage: 10 },
];

describe('palette exports', () => {
  it('CSS: a custom property per colour, named after it, numbered when names repeat', () => {
    expect(paletteCss(colors)).toBe(
      [
        ':root {',
        '  --palette-orange: #ff8000; /* 60% */',
        '  --palette-dark-night: #13111a; /* 30% */',
        '  --palette-dark-night-2: #13111b; /* 10% */',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('JSON: the colours as the analysis gives them', () => {
    expect(JSON.parse(paletteJson(colors))).toEqual({ colors });
  });

  it('ASE: "ASEF", version 1.0, one colour entry per colour with its name, RGB floats and type', () => {
    const bytes = paletteAse([{ hex: '#ff8000', name: 'Orange', percentage: 100 }]);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const ascii = (at: number, n: number) => String.fromCharCode(...bytes.slice(at, at + n));
    expect(ascii(0, 4)).toBe('ASEF');
    expect([view.getUint16(4), view.getUint16(6)]).toEqual([1, 0]);
    expect(view.getUint32(8)).toBe(1); // blocks
    expect(view.getUint16(12)).toBe(0x0001); // colour entry
    const nameUnits = 'Orange'.length + 1;
    const length = 2 + nameUnits * 2 + 4 + 12 + 2;
    expect(view.getUint32(14)).toBe(length);
    expect(view.getUint16(18)).toBe(nameUnits);
    const name = Array.from({ length: 6 }, (_, i) => String.fromCharCode(view.getUint16(20 + i * 2))).join('');
    expect(name).toBe('Orange');
    expect(view.getUint16(32)).toBe(0); // the name's terminating zero
    expect(ascii(34, 4)).toBe('RGB ');
    expect([view.getFloat32(38), view.getFloat32(42), view.getFloat32(46)]).toEqual([1, Math.fround(128 / 255), 0]);
    expect(view.getUint16(50)).toBe(2); // normal colour
    expect(bytes.length).toBe(12 + 6 + length);
  });

  it('ASE: names beyond ASCII as UTF-16, and every colour a block', () => {
    const bytes = paletteAse([
      { hex: '#000000', name: 'Café', percentage: 50 },
      { hex: '#ffffff', name: 'White', percentage: 50 },
    ]);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    expect(view.getUint32(8)).toBe(2);
    expect(view.getUint16(20 + 3 * 2)).toBe('é'.charCodeAt(0));
    const second = 12 + 6 + view.getUint32(14);
    expect(view.getUint16(second)).toBe(0x0001);
    expect(view.getUint16(second + 6)).toBe('White'.length + 1);
    expect(bytes.length).toBe(second + 6 + view.getUint32(second + 2));
  });
});
