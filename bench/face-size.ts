// How small a face the local Fix a Face can still restore: each portrait of test/fixtures/images
// is reduced until its face is `h` px tall at 2x (the truth: the original reduced, never enlarged),
// then reduced 2x and degraded as photos arrive (clean, JPEG q40, blurred 1.2 or 2 px then JPEG
// q75); Lanczos and Fix a Face (without its size rule) enlarge it 2x, scored against the truth on
// the face box (PSNR, SSIM) and on the band of the eyes (the correlation of fine detail, which a
// smoothed or invented face does not raise); the detector's box on the input is printed, since the
// rule (restorable-faces.ts MIN_FACE_HEIGHT) can only see that box. Decision 041 has the figures.
// Contact sheets (truth | input | Lanczos | Fix a Face, the face box at 256 px) go to .tmp/face-size/.
// Run: npx tsx bench/face-size.ts   (FACE_HEIGHTS=40,48,56 for other sizes)
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { detectFaces } from '../src/server/inference/local/faces/detect-faces';
import { fixFaces } from '../src/server/inference/local/faces/fix-a-face';
import { fromRaw, type RawImage, resizedTo } from '../src/server/inference/local/raw-image';
import { psnr, ssim } from '../src/server/inference/local/upscale/sharpness';

const PHOTOS = path.resolve(import.meta.dirname, '../test/fixtures/images');
const SHEETS = path.resolve(import.meta.dirname, '../.tmp/face-size');
const PORTRAITS = ['grace_hopper.jpg', 'astronaut.png', 'camera.png'];
const FACE_HEIGHTS = (process.env.FACE_HEIGHTS ?? '32,48,64,80,96,112,128').split(',').map(Number);

type Degradation = { name: string; apply: (truth: RawImage) => Promise<RawImage> };
const raw = async (pipeline: Sharp): Promise<RawImage> => {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
};
const half = (image: RawImage) =>
  fromRaw(image).resize(Math.round(image.width / 2), Math.round(image.height / 2), { kernel: 'lanczos3', fit: 'fill' });
const blurred = async (image: RawImage, sigma: number) =>
  raw(sharp(await half(image).blur(sigma).jpeg({ quality: 75 }).toBuffer()));
const DEGRADATIONS: Degradation[] = [
  { name: '2x smaller', apply: (t) => raw(half(t)) },
  { name: '2x smaller, q40', apply: async (t) => raw(sharp(await half(t).jpeg({ quality: 40 }).toBuffer())) },
  { name: '2x smaller, blur 1.2, q75', apply: (t) => blurred(t, 1.2) },
  { name: '2x smaller, blur 2, q75', apply: (t) => blurred(t, 2) },
];

/**
 * How much of the truth's fine detail the image holds, and only real detail: the correlation of the
 * two images' Laplacians (luminance), 1 for the same edges, 0 for none or for invented ones.
 */
function detailCorrelation(a: RawImage, b: RawImage): number {
  const laplacian = (image: RawImage) => {
    const grey = (x: number, y: number) => {
      const i = (y * image.width + x) * 3;
      return 0.299 * (image.data[i] ?? 0) + 0.587 * (image.data[i + 1] ?? 0) + 0.114 * (image.data[i + 2] ?? 0);
    };
    const out: number[] = [];
    for (let y = 1; y < image.height - 1; y++)
      for (let x = 1; x < image.width - 1; x++)
        out.push(grey(x - 1, y) + grey(x + 1, y) + grey(x, y - 1) + grey(x, y + 1) - 4 * grey(x, y));
    return out;
  };
  const [p, q] = [laplacian(a), laplacian(b)];
  const mean = (v: number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const [mp, mq] = [mean(p), mean(q)];
  let pq = 0;
  let pp = 0;
  let qq = 0;
  for (let i = 0; i < p.length; i++) {
    const [dp, dq] = [(p[i] ?? 0) - mp, (q[i] ?? 0) - mq];
    pq += dp * dq;
    pp += dp * dp;
    qq += dq * dq;
  }
  return pq / Math.sqrt(pp * qq || 1);
}

async function photo(file: string): Promise<RawImage> {
  return raw(sharp(path.join(PHOTOS, file)).toColourspace('srgb'));
}

async function crop(image: RawImage, box: { x: number; y: number; width: number; height: number }) {
  return raw(fromRaw(image).extract({ left: box.x, top: box.y, width: box.width, height: box.height }));
}

await mkdir(SHEETS, { recursive: true });
console.log(
  '| portrait | degradation | face h (px) | detected | Lanczos PSNR / SSIM / eyes detail | Fix a Face PSNR / SSIM / eyes detail | ΔSSIM | Δeyes detail |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const file of PORTRAITS) {
  const original = await photo(file);
  const [face] = await detectFaces(original);
  if (!face) throw new Error(`no face in ${file}`);
  for (const h of FACE_HEIGHTS) {
    // The truth has the face at 2h: the original reduced (a 2h larger than the original's face is skipped).
    const factor = (2 * h) / face.height;
    if (factor > 1) continue;
    const width = Math.round((original.width * factor) / 2) * 2;
    const height = Math.round((original.height * factor) / 2) * 2;
    const truth = await resizedTo(original, width, height);
    const box = {
      x: Math.round(face.x * factor),
      y: Math.round(face.y * factor),
      width: Math.min(Math.round(face.width * factor), width - Math.round(face.x * factor)),
      height: Math.min(Math.round(face.height * factor), height - Math.round(face.y * factor)),
    };
    for (const degradation of DEGRADATIONS) {
      const input = await degradation.apply(truth);
      const found = await detectFaces(input);
      const lanczos = await resizedTo(input, truth.width, truth.height);
      const fixed = found.length > 0 ? await fixFaces(input, undefined, { minFaceHeight: 0 }) : null;
      // The whole face box, and the band of the eyes (where a restored face differs from a smoothed one).
      const eyes = {
        x: box.x,
        y: box.y + Math.round(box.height * 0.2),
        width: box.width,
        height: Math.round(box.height * 0.35),
      };
      const score = async (image: RawImage) => {
        const [a, b] = [await crop(image, box), await crop(truth, box)];
        const [ea, eb] = [await crop(image, eyes), await crop(truth, eyes)];
        return { psnr: psnr(a, b), ssim: ssim(a, b), eyes: detailCorrelation(ea, eb) };
      };
      const l = await score(lanczos);
      const f = fixed ? await score(fixed) : null;
      const detected = found[0] ? `${found[0].height} px (${found[0].score.toFixed(2)})` : 'no face';
      const cell = (s: { psnr: number; ssim: number; eyes: number } | null) =>
        s ? `${s.psnr.toFixed(2)} / ${s.ssim.toFixed(3)} / ${s.eyes.toFixed(3)}` : '-';
      console.log(
        `| ${file} | ${degradation.name} | ${h} | ${detected} | ${cell(l)} | ${cell(f)} | ${f ? (f.ssim - l.ssim).toFixed(3) : '-'} | ${f ? (f.eyes - l.eyes).toFixed(3) : '-'} |`,
      );
      if (fixed) {
        const panels = await Promise.all([truth, lanczos, fixed].map((image) => crop(image, box)));
        const tile = async (image: RawImage) =>
          fromRaw(image).resize(256, 256, { fit: 'fill', kernel: 'nearest' }).png().toBuffer();
        const inputTile = await raw(
          fromRaw(input).extract({
            left: Math.floor(box.x / 2),
            top: Math.floor(box.y / 2),
            width: Math.floor(box.width / 2),
            height: Math.floor(box.height / 2),
          }),
        );
        const tiles = await Promise.all([panels[0], inputTile, panels[1], panels[2]].map((p) => tile(p as RawImage)));
        const sheet = await sharp({ create: { width: 256 * 4, height: 256, channels: 3, background: '#ffffff' } })
          .composite(tiles.map((input, i) => ({ input, left: i * 256, top: 0 })))
          .png()
          .toBuffer();
        const name = `${path.parse(file).name}-${h}-${degradation.name.replace(/[^a-z0-9]+/gi, '-')}.png`;
        await writeFile(path.join(SHEETS, name), sheet);
      }
    }
  }
}
console.log(`\nContact sheets (truth | input | Lanczos | Fix a Face, each face box at 256 px): ${SHEETS}`);
