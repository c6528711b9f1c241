// Human names for palette colours: the nearest entry of color-name-list's "best of" list (about
// 5,000 well-known names, where the full list's 32,000 are often obscure) measured in OKLab.
import { colornames } from 'color-name-list/bestof';
import { type Lab, parseHex, rgbToOklab } from './oklab';

type NameTable = { names: string[]; lab: Float64Array };
let table: NameTable | undefined;

/** The list's OKLab values, converted once on first use and kept. */
function nameTable(): NameTable {
  if (!table) {
    const lab = new Float64Array(colornames.length * 3);
    colornames.forEach((entry, i) => {
      const c = rgbToOklab(...parseHex(entry.hex));
      lab[i * 3] = c.l;
      lab[i * 3 + 1] = c.a;
      lab[i * 3 + 2] = c.b;
    });
    table = { names: colornames.map((entry) => entry.name), lab };
  }
  return table;
}

/** The name of the listed colour closest to `colour` (a linear scan: ~5,000 entries, well under 1 ms). */
export function nearestColorName(colour: Lab): string {
  const { names, lab } = nameTable();
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let i = 0; i < names.length; i++) {
    const dl = (lab[i * 3] as number) - colour.l;
    const da = (lab[i * 3 + 1] as number) - colour.a;
    const db = (lab[i * 3 + 2] as number) - colour.b;
    const distance = dl * dl + da * da + db * db;
    if (distance < bestDistance) {
      bestDistance = distance;
      best = i;
    }
  }
  return names[best] as string;
}
