// Restoration quality: each photo of test/fixtures/images (the originals, a centre crop of at most
// 512 px) is degraded as photos arrive in the wild (reduced 4x, JPEG quality 40), then restored to
// its size with Lanczos, the RDN network the tools used before (esrgan-slim) and Real-ESRGAN's two
// networks; PSNR and SSIM against the original, with ratios to Lanczos. The tools' own 2x (Image
// Upscaler, Creative Upscaler) on a 256 px crop degraded 2x and on two held-out corner crops, and Fix
// a Face on a portrait.
// Contact sheets (original | degraded | Lanczos | old | new) go to docs/quality/.
// Run: npm run bench:quality
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { detectFaces } from '../src/server/inference/local/faces/detect-faces';
import { fixFaces } from '../src/server/inference/local/faces/fix-a-face';
import { type RawImage, resizedTo } from '../src/server/inference/local/raw-image';
import { withFidelity } from '../src/server/inference/local/upscale/fidelity';
import { degraded, psnr, ssim } from '../src/server/inference/local/upscale/sharpness';
import { restore4x, superResolve } from '../src/server/inference/local/upscale/super-resolve';
import {
  creativeUpscale,
  restoredWithFidelity,
  upscaleBy,
} from '../src/server/inference/local/upscale/upscale-engines';
import { contactSheet, type Panel } from './quality/contact-sheet';

const PHOTOS = path.resolve(import.meta.dirname, '../test/fixtures/images');
const SHEETS = path.resolve(import.meta.dirname, '../docs/quality');
const CROP = 128;

type Restorer = { name: string; run: (low: RawImage, width: number, height: number) => Promise<RawImage> };
const lanczos: Restorer = { name: 'lanczos', run: (low, w, h) => resizedTo(low, w, h) };
const at4x: Restorer[] = [
  lanczos,
  { name: 'old (RDN slim)', run: (low) => superResolve(low, 4) },
  { name: 'x4fast', run: (low) => restore4x(low, 'x4fast') },
  { name: 'x4plus', run: (low) => restore4x(low, 'x4plus') },
  // The network's output mixed with Lanczos (decision 026): at the fixed share, and at the share
  // measured on the image, as the Image Upscaler runs it.
  { name: 'x4fast + fidelity', run: async (low) => withFidelity(await restore4x(low, 'x4fast'), low) },
  { name: 'Image Upscaler 4x (calibrated share)', run: (low) => restoredWithFidelity(low, 'x4fast') },
  { name: 'x4plus + fidelity', run: async (low) => withFidelity(await restore4x(low, 'x4plus'), low) },
];
const tools2x: Restorer[] = [
  lanczos,
  { name: 'Image Upscaler 2x', run: (low) => upscaleBy(low, 2) },
  { name: 'Creative Upscaler', run: (low) => creativeUpscale(low) },
];

type Where = 'centre' | 'bottom-right' | 'top-left';

/** The photo, RGB, cropped to at most `side` px (a multiple of 4) at its centre or a corner. */
async function original(file: string, side: number, where: Where = 'centre'): Promise<RawImage> {
  const image = sharp(path.join(PHOTOS, file)).removeAlpha().toColourspace('srgb');
  const { width = 0, height = 0 } = await sharp(path.join(PHOTOS, file)).metadata();
  const w = Math.min(side, width - (width % 4));
  const h = Math.min(side, height - (height % 4));
  const at = (length: number, size: number) =>
    where === 'centre' ? Math.floor((length - size) / 2) : where === 'bottom-right' ? length - size : 0;
  const region = { left: at(width, w), top: at(height, h), width: w, height: h };
  const { data, info } = await image.extract(region).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}

type Row = { image: string; scores: { name: string; psnr: number; ssim: number; ms: number }[] };

async function compare(truth: RawImage, low: RawImage, restorers: Restorer[]) {
  const outputs: Panel[] = [];
  const scores: Row['scores'] = [];
  for (const r of restorers) {
    const start = performance.now();
    const out = await r.run(low, truth.width, truth.height);
    const ms = performance.now() - start;
    scores.push({ name: r.name, psnr: psnr(out, truth), ssim: ssim(out, truth), ms });
    outputs.push({ label: r.name, image: out });
  }
  return { outputs, scores };
}

function printTable(title: string, rows: Row[]) {
  const names = rows[0]?.scores.map((s) => s.name) ?? [];
  console.log(`\n### ${title}\n`);
  console.log(`| image | ${names.map((n) => `${n} SSIM / PSNR`).join(' | ')} |`);
  console.log(`|---|${names.map(() => '---').join('|')}|`);
  for (const { image, scores } of rows) {
    const base = scores[0];
    const cells = scores.map((s, i) =>
      i === 0 || !base
        ? `${s.ssim.toFixed(3)} / ${s.psnr.toFixed(2)} dB`
        : `${s.ssim.toFixed(3)} (${(s.ssim / base.ssim).toFixed(3)}x) / ${s.psnr.toFixed(2)} dB (${s.psnr - base.psnr >= 0 ? '+' : ''}${(s.psnr - base.psnr).toFixed(2)})`,
    );
    console.log(`| ${image} | ${cells.join(' | ')} |`);
  }
  const seconds = names.map((n) => {
    const all = rows.flatMap((r) => r.scores.filter((s) => s.name === n).map((s) => s.ms));
    return `${n} ${(all.reduce((a, b) => a + b, 0) / all.length / 1000).toFixed(2)} s`;
  });
  console.log(`\nMean time per image: ${seconds.join(', ')}`);
}

await mkdir(SHEETS, { recursive: true });
const files = (await readdir(PHOTOS)).filter((f) => /\.(png|jpe?g)$/i.test(f)).sort();
const rows4x: Row[] = [];
const rows2x: Row[] = [];
// Crops the tools' calibration was not tuned on (decisions 026: tuned on the centre crops).
const heldOut2x: Row[] = [];
for (const file of files) {
  const name = file.replace(/\.\w+$/, '');
  const truth = await original(file, 512);
  const low = await degraded(truth, 4);
  const { outputs, scores } = await compare(truth, low, at4x);
  rows4x.push({ image: name, scores });
  const crop = {
    left: Math.floor((truth.width - CROP) / 2),
    top: Math.floor((truth.height - CROP) / 2),
    width: CROP,
    height: CROP,
  };
  const sheet = await contactSheet(
    [{ label: 'original', image: truth }, { label: 'degraded (4x smaller, q40)', image: low }, ...outputs],
    crop,
    truth.width,
  );
  await writeFile(path.join(SHEETS, `${name}.png`), sheet);

  const truth2x = await original(file, 256);
  const low2x = await degraded(truth2x, 2);
  const tools = await compare(truth2x, low2x, tools2x);
  rows2x.push({ image: name, scores: tools.scores });
  // The 2x tools side by side where they are closest to Lanczos (fur, a star field) and on a portrait.
  if (['chelsea', 'hubble_deep_field', 'grace_hopper'].includes(name)) {
    const centre = { left: 64, top: 64, width: CROP, height: CROP };
    const panels = [
      { label: 'original', image: truth2x },
      { label: 'degraded (2x smaller, q40)', image: low2x },
    ];
    await writeFile(
      path.join(SHEETS, `tools-2x-${name}.png`),
      await contactSheet([...panels, ...tools.outputs], centre, truth2x.width),
    );
  }
  for (const [where, side] of [
    ['bottom-right', 256],
    ['top-left', 384],
  ] as const) {
    const held = await original(file, side, where);
    heldOut2x.push({
      image: `${name} (${where} ${side})`,
      scores: (await compare(held, await degraded(held, 2), tools2x)).scores,
    });
  }
}
printTable('Restoring 4x (512 px crop reduced 4x, JPEG q40)', rows4x);
printTable('The tools at 2x (256 px crop reduced 2x, JPEG q40)', rows2x);
printTable('The tools at 2x on held-out crops (reduced 2x, JPEG q40)', heldOut2x);

// Fix a Face: a portrait reduced 2x and saved at q40; scored on the face region only.
const portrait = await original('grace_hopper.jpg', 512);
const low = await degraded(portrait, 2);
const [face] = await detectFaces(low);
if (!face) throw new Error('no face found in the degraded portrait');
const region = {
  left: face.x * 2,
  top: face.y * 2,
  width: Math.min(face.width * 2, portrait.width - face.x * 2),
  height: Math.min(face.height * 2, portrait.height - face.y * 2),
};
const cropOf = async (image: RawImage): Promise<RawImage> => {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .extract(region)
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
};
const faceTruth = await cropOf(portrait);
const faceRows: Row = { image: 'grace_hopper face', scores: [] };
const facePanels: Panel[] = [];
for (const [label, run] of [
  ['lanczos', () => resizedTo(low, portrait.width, portrait.height)],
  ['Fix a Face', () => fixFaces(low)],
] as const) {
  const start = performance.now();
  const out = await run();
  const ms = performance.now() - start;
  const crop = await cropOf(out);
  faceRows.scores.push({ name: label, psnr: psnr(crop, faceTruth), ssim: ssim(crop, faceTruth), ms });
  facePanels.push({ label, image: out });
}
printTable('Fix a Face (portrait reduced 2x, JPEG q40; scored on the face)', [faceRows]);
const side = Math.min(region.width, region.height, 200);
await writeFile(
  path.join(SHEETS, 'fix-a-face.png'),
  await contactSheet(
    [{ label: 'original', image: portrait }, { label: 'degraded (2x smaller, q40)', image: low }, ...facePanels],
    {
      left: region.left + (region.width - side) / 2,
      top: region.top + (region.height - side) / 2,
      width: side,
      height: side,
    },
    portrait.width,
  ),
);
console.log(`\nContact sheets: ${path.relative(process.cwd(), SHEETS)}/`);
