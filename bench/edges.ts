// bench/edges: how much of the old background's colour clean edges (issue 58 item 2, decision 080)
// takes out of a cut-out's soft edge. Subjects with a KNOWN alpha are made from the photos of
// test/fixtures/images (each photo is the true foreground colour; its alpha an ellipse whose rim is
// soft and hairy: a blurred noise field thresholded in a band, then blurred), composited over flat
// coloured backgrounds and a blurred photo, I = aF + (1 - a)B. The cut-out the finishing sees is that
// composite with the true alpha; clean edges (images/finishing/edge-colours.ts, its worker thread,
// as the server runs it) estimates F. Printed per background: the mean colour error at the edge
// (alpha 0.05-0.95) against the true F, before (the composite's own colour, what a cut-out keeps
// today) and after, in 8-bit levels averaged over R, G and B; the same weighted by alpha (what shows
// on a new background, a·|F' - F|); and the run time per megapixel (the thread's round trip included).
//   npm run bench:edges -- [--side 1024] [--runs 3] [--sheet edges.png]
// --side: the subjects' longer side in px; --runs: timed runs per cut-out (the median is printed);
// --sheet: a contact sheet PNG of edge crops, on black and on white: before, after, the truth.
import path from 'node:path';
import sharp, { type OverlayOptions } from 'sharp';
import { withCleanEdges } from '../src/server/images/finishing/edge-colours';
import { arg } from './load/harness';

const PHOTOS = path.resolve(import.meta.dirname, '../test/fixtures/images');
const SUBJECTS = ['chelsea.png', 'astronaut.png', 'coffee.png', 'grace_hopper.jpg'];
const BACKGROUNDS: { name: string; colour?: [number, number, number]; photo?: string }[] = [
  { name: 'red', colour: [230, 20, 20] },
  { name: 'green', colour: [20, 200, 40] },
  { name: 'blue', colour: [20, 40, 230] },
  { name: 'white', colour: [255, 255, 255] },
  { name: 'black', colour: [0, 0, 0] },
  { name: 'photo', photo: 'rocket.jpg' },
];
const SIDE = arg('side', 1024);
const RUNS = Math.max(1, arg('runs', 3));
const sheetAt = process.argv.indexOf('--sheet');
const SHEET = sheetAt > 0 ? process.argv[sheetAt + 1] : undefined;

type Plane = { data: Float32Array; width: number; height: number };

/** A deterministic pseudo-random sequence (the same subjects every run). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The photo at SIDE on its longer side, RGB. */
async function photo(file: string, width?: number, height?: number) {
  const pipeline = sharp(path.join(PHOTOS, file)).removeAlpha();
  const resized =
    width && height ? pipeline.resize(width, height, { fit: 'cover' }) : pipeline.resize(SIDE, SIDE, { fit: 'inside' });
  const { data, info } = await resized.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A soft, hairy alpha: an ellipse, its rim broken by blurred noise into strands, blurred again. */
async function hairyAlpha(width: number, height: number, seed: number): Promise<Plane> {
  const next = random(seed);
  const noise = Buffer.alloc(width * height);
  for (let i = 0; i < noise.length; i++) noise[i] = Math.round(next() * 255);
  // Blurred more along one axis than the other: strands rather than dots.
  const strands = await sharp(noise, { raw: { width, height, channels: 1 } })
    .blur(Math.max(0.6, SIDE / 700))
    .extractChannel(0)
    .raw()
    .toBuffer();
  const rim = Math.max(0.06, 24 / SIDE);
  const alpha = Buffer.alloc(width * height);
  const [cx, cy, rx, ry] = [width / 2, height * 0.55, width * 0.36, height * 0.4];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const r = Math.hypot((x - cx) / rx, (y - cy) / ry);
      // Inside 1 - rim: subject; past 1 + rim: background; between, strands thin out outwards.
      const depth = (1 + rim - r) / (2 * rim);
      const i = y * width + x;
      const strand = ((strands[i] ?? 128) - 128) / 40;
      alpha[i] = Math.round(255 * Math.min(1, Math.max(0, depth * 1.4 - 0.2 + strand * Math.min(depth, 1 - depth))));
    }
  }
  const soft = await sharp(alpha, { raw: { width, height, channels: 1 } })
    .blur(Math.max(0.5, SIDE / 1000))
    .extractChannel(0)
    .raw()
    .toBuffer();
  return { data: Float32Array.from(soft, (v) => v / 255), width, height };
}

/** The composite aF + (1 - a)B as a cut-out: its RGB the composite, its alpha the true one. */
function composite(fore: Buffer, back: Buffer, alpha: Plane): Uint8Array {
  const n = alpha.width * alpha.height;
  const rgba = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) {
    const a = alpha.data[i] ?? 0;
    for (let c = 0; c < 3; c++) {
      rgba[i * 4 + c] = Math.round(a * (fore[i * 3 + c] ?? 0) + (1 - a) * (back[i * 3 + c] ?? 0));
    }
    rgba[i * 4 + 3] = Math.round(a * 255);
  }
  return rgba;
}

/** Mean |F' - F| at the edge (0.05 < a < 0.95), plain and alpha-weighted, in 8-bit levels. */
function edgeError(estimate: Uint8Array, fore: Buffer, alpha: Plane) {
  let [sum, weighted, count] = [0, 0, 0];
  for (let i = 0; i < alpha.width * alpha.height; i++) {
    const a = alpha.data[i] ?? 0;
    if (a <= 0.05 || a >= 0.95) continue;
    let difference = 0;
    for (let c = 0; c < 3; c++) difference += Math.abs((estimate[i * 4 + c] ?? 0) - (fore[i * 3 + c] ?? 0));
    sum += difference / 3;
    weighted += (a * difference) / 3;
    count++;
  }
  return { plain: sum / count, weighted: weighted / count, pixels: count };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const pad = (text: string | number, width: number) => String(text).padStart(width);

type Row = {
  background: string;
  before: number[];
  after: number[];
  beforeW: number[];
  afterW: number[];
  msPerMp: number[];
};
type Crop = { label: string; before: Uint8Array; after: Uint8Array; truth: Uint8Array; width: number; height: number };

async function main() {
  const rows: Row[] = BACKGROUNDS.map((b) => ({
    background: b.name,
    before: [],
    after: [],
    beforeW: [],
    afterW: [],
    msPerMp: [],
  }));
  const crops: Crop[] = [];
  for (const [s, file] of SUBJECTS.entries()) {
    const fore = await photo(file);
    const alpha = await hairyAlpha(fore.width, fore.height, 17 + s);
    const truth = composite(fore.data, fore.data, { ...alpha, data: alpha.data });
    for (const [b, background] of BACKGROUNDS.entries()) {
      const back = background.photo
        ? (await photo(background.photo, fore.width, fore.height)).data
        : Buffer.from(Array.from({ length: fore.width * fore.height }, () => background.colour ?? [0, 0, 0]).flat());
      const cutOut = composite(fore.data, back, alpha);
      const times: number[] = [];
      let cleaned = cutOut;
      for (let run = 0; run < RUNS; run++) {
        const start = performance.now();
        cleaned = (await withCleanEdges({ data: cutOut, width: fore.width, height: fore.height })).data;
        times.push(performance.now() - start);
      }
      const before = edgeError(cutOut, fore.data, alpha);
      const after = edgeError(cleaned, fore.data, alpha);
      const row = rows[b] as Row;
      row.before.push(before.plain);
      row.after.push(after.plain);
      row.beforeW.push(before.weighted);
      row.afterW.push(after.weighted);
      row.msPerMp.push(median(times) / ((fore.width * fore.height) / 1e6));
      if (SHEET && (background.name === 'red' || background.name === 'green' || background.name === 'photo') && s < 2) {
        crops.push({
          label: `${file} on ${background.name}`,
          before: cutOut,
          after: cleaned,
          truth,
          width: fore.width,
          height: fore.height,
        });
      }
    }
  }
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  console.log(`clean edges on ${SUBJECTS.length} subjects at ${SIDE} px (longer side), ${RUNS} timed runs each`);
  console.log("colour error at the edge (alpha 0.05-0.95), 8-bit levels, mean of |R|,|G|,|B|; weighted: a*|F'-F|");
  console.log(
    `${'background'.padEnd(11)}${pad('before', 8)}${pad('after', 8)}${pad('factor', 8)}${pad('wtd before', 12)}${pad('wtd after', 11)}${pad('ms/MP', 8)}`,
  );
  for (const row of rows) {
    const [before, after] = [mean(row.before), mean(row.after)];
    console.log(
      `${row.background.padEnd(11)}${pad(before.toFixed(1), 8)}${pad(after.toFixed(1), 8)}${pad(`${(before / after).toFixed(1)}x`, 8)}` +
        `${pad(mean(row.beforeW).toFixed(1), 12)}${pad(mean(row.afterW).toFixed(1), 11)}${pad(median(row.msPerMp).toFixed(0), 8)}`,
    );
  }
  if (SHEET) await contactSheet(crops, SHEET);
}

/** Edge crops (the ellipse's right rim, zoomed 2x) composited on black and on white: before, after, truth. */
async function contactSheet(crops: Crop[], file: string) {
  const tile = 160;
  const tiles: OverlayOptions[] = [];
  const labels: string[] = [];
  for (const [row, crop] of crops.entries()) {
    // 80 px of the rim, or what a small subject has, kept inside the picture.
    const side = Math.min(tile / 2, Math.floor(Math.min(crop.width, crop.height) / 2));
    const box = {
      left: Math.min(crop.width - side, Math.max(0, Math.round(crop.width * 0.86 - side / 2))),
      top: Math.min(crop.height - side, Math.max(0, Math.round(crop.height * 0.55 - side / 2))),
      width: side,
      height: side,
    };
    const cells = [crop.before, crop.after, crop.truth];
    for (const [g, ground] of (['#000000', '#ffffff'] as const).entries()) {
      for (const [k, pixels] of cells.entries()) {
        const input = await sharp(Buffer.from(pixels), { raw: { width: crop.width, height: crop.height, channels: 4 } })
          .extract(box)
          .resize(tile, tile, { kernel: 'nearest' })
          .flatten({ background: ground })
          .png()
          .toBuffer();
        tiles.push({ input, left: 10 + (g * 3 + k) * (tile + 6) + (g ? 14 : 0), top: 34 + row * (tile + 26) });
      }
    }
    labels.push(
      `<text x="10" y="${28 + row * (tile + 26)}" font-size="14" font-family="sans-serif">${crop.label}: on black before, after, truth; on white before, after, truth</text>`,
    );
  }
  const width = 10 + 6 * (tile + 6) + 24;
  const height = 34 + crops.length * (tile + 26);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="#888"/>${labels.join('')}</svg>`;
  await sharp(Buffer.from(svg)).composite(tiles).png().toFile(file);
  console.log(`contact sheet: ${file}`);
}

await main();
