// Makes the landing page's twelve gallery images (src/web/public/gallery/1.webp ... 12.webp), all ours
// to publish: seven public-domain / CC0 photographs of test/fixtures/images reworked here (crops,
// duotones, colour grades) and five pictures drawn by code (SVG rendered by sharp).
// Usage: npx tsx scripts/make-gallery.ts [SOURCE_DIR]   (default test/fixtures/images)
// The output is deterministic: the drawings use a seeded random generator.
import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { GALLERY_WIDTHS, galleryFile } from '../src/web/features/landing/gallery-images';

const ROOT = path.resolve(import.meta.dirname, '..');
const SOURCE = path.resolve(process.argv[2] ?? path.join(ROOT, 'test/fixtures/images'));
const OUT = path.join(ROOT, 'src/web/public/gallery');
const SIZE = 640;
/** Each file must stay small: the gallery loads twelve of them. */
const MAX_BYTES = 80_000;

type Rgb = [number, number, number];
const hex = (value: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(value.slice(i, i + 2), 16)) as Rgb;

/** Mulberry32: a tiny seeded generator, so that every run draws the same pictures. */
function random(seed: number) {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A square crop of a photograph; `position` picks the part that matters. */
function squarePhoto(file: string, position: string | number = sharp.strategy.attention) {
  return sharp(path.join(SOURCE, file)).resize(SIZE, SIZE, { fit: 'cover', position });
}

/** Maps the photo's luminance onto a colour ramp (two or three stops): a duotone or tritone. */
async function toneMap(image: Sharp, stops: string[]): Promise<Sharp> {
  const { data, info } = await image.greyscale().normalise().raw().toBuffer({ resolveWithObject: true });
  const ramp = stops.map(hex);
  const out = Buffer.alloc(info.width * info.height * 3);
  for (let i = 0; i < info.width * info.height; i++) {
    const t = ((data[i * info.channels] ?? 0) / 255) * (ramp.length - 1);
    const k = Math.min(Math.floor(t), ramp.length - 2);
    const f = t - k;
    const a = ramp[k] as Rgb;
    const b = ramp[k + 1] as Rgb;
    for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round((a[c] ?? 0) + ((b[c] ?? 0) - (a[c] ?? 0)) * f);
  }
  return sharp(out, { raw: { width: info.width, height: info.height, channels: 3 } });
}

const svg = (body: string, background: string) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}"><rect width="100%" height="100%" fill="${background}"/>${body}</svg>`,
    ),
  );

/** Layered hills at dusk under a large sun. */
function dusk() {
  const rnd = random(7);
  const layers = ['#f6b38e', '#e27a8f', '#a65c9f', '#6c4fa3', '#35306b'];
  const hills = layers
    .map((colour, n) => {
      const base = 300 + n * 70;
      let d = `M0 ${base}`;
      for (let x = 0; x <= SIZE; x += 80) d += ` Q${x + 40} ${base - 30 - rnd() * 70} ${x + 80} ${base - rnd() * 30}`;
      return `<path d="${d} V${SIZE} H0Z" fill="${colour}"/>`;
    })
    .join('');
  return svg(
    `<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ffe3c4"/><stop offset="1" stop-color="#ffb199"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#sky)"/><circle cx="420" cy="250" r="110" fill="#fff4e0" opacity="0.9"/>${hills}`,
    '#ffe3c4',
  );
}

/** A Bauhaus-style grid of quarter circles and squares in the brand colours. */
function tiles() {
  const rnd = random(21);
  const colours = ['#6c5ce7', '#ff6b8b', '#ffd36e', '#1d1b3a', '#f4efe6', '#4fc3b5'];
  const cell = SIZE / 5;
  let body = '';
  for (let y = 0; y < 5; y++)
    for (let x = 0; x < 5; x++) {
      const px = x * cell;
      const py = y * cell;
      const bg = colours[Math.floor(rnd() * colours.length)];
      let fg = colours[Math.floor(rnd() * colours.length)];
      if (fg === bg) fg = colours[(colours.indexOf(fg as string) + 2) % colours.length];
      body += `<rect x="${px}" y="${py}" width="${cell}" height="${cell}" fill="${bg}"/>`;
      const corner = Math.floor(rnd() * 5);
      if (corner === 4) body += `<circle cx="${px + cell / 2}" cy="${py + cell / 2}" r="${cell / 3}" fill="${fg}"/>`;
      else {
        const cx = px + (corner % 2) * cell;
        const cy = py + Math.floor(corner / 2) * cell;
        body += `<path d="M${cx} ${cy} L${px + cell - (corner % 2) * cell} ${cy} A${cell} ${cell} 0 0 ${corner === 1 || corner === 2 ? 0 : 1} ${cx} ${py + cell - Math.floor(corner / 2) * cell}Z" fill="${fg}"/>`;
      }
    }
  return svg(body, '#f4efe6');
}

/** Soft overlapping colour fields, like a blurred gradient mesh. */
function aurora() {
  const rnd = random(99);
  const colours = ['#6c5ce7', '#ff6b8b', '#8fd3ff', '#ffd36e', '#b064c4'];
  const blobs = colours
    .map(
      (colour) =>
        `<circle cx="${rnd() * SIZE}" cy="${rnd() * SIZE}" r="${160 + rnd() * 140}" fill="${colour}" opacity="0.85"/>`,
    )
    .join('');
  return svg(
    `<defs><filter id="blur" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="70"/></filter></defs><g filter="url(#blur)">${blobs}</g>`,
    '#fdf6fb',
  );
}

/** Concentric rings drifting from violet to rose: an abstract record of the brand gradient. */
function rings() {
  let body = '';
  const count = 18;
  for (let n = count; n > 0; n--) {
    const t = n / count;
    const [r1, g1, b1] = hex('#6c5ce7');
    const [r2, g2, b2] = hex('#ff6b8b');
    const colour = `rgb(${Math.round(r1 + (r2 - r1) * t)},${Math.round(g1 + (g2 - g1) * t)},${Math.round(b1 + (b2 - b1) * t)})`;
    body += `<circle cx="${200 + n * 6}" cy="${440 - n * 8}" r="${n * 26}" fill="${colour}" stroke="#fff" stroke-opacity="0.25" stroke-width="2"/>`;
  }
  return svg(body, '#1d1b3a');
}

/** Flowing ribbons of thin lines, like a paper cut. */
function ribbons() {
  const rnd = random(5);
  const colours = ['#ff6b8b', '#ffd36e', '#4fc3b5', '#8fd3ff', '#6c5ce7'];
  let body = '';
  for (let n = 0; n < 44; n++) {
    const y = 40 + n * 13;
    const amp = 40 + rnd() * 60;
    body += `<path d="M-20 ${y} C160 ${y - amp} 320 ${y + amp} 660 ${y - amp / 2}" fill="none" stroke="${colours[n % colours.length]}" stroke-width="5" stroke-linecap="round" opacity="0.9"/>`;
  }
  return svg(body, '#16161d');
}

type Item = { name: string; make: () => Sharp | Promise<Sharp> };

// The order is the gallery's: photographs and drawings alternate so that any six look varied.
const ITEMS: Item[] = [
  {
    name: 'astronaut: violet-to-peach tritone',
    make: () => toneMap(squarePhoto('astronaut.png'), ['#1d1b3a', '#6c5ce7', '#ffc8a8']),
  },
  { name: 'dusk: drawn by code', make: dusk },
  {
    name: 'chelsea: warm grade',
    make: () => squarePhoto('chelsea.png').modulate({ saturation: 1.35, brightness: 1.05 }).tint('#ffe2c6'),
  },
  { name: 'tiles: drawn by code', make: tiles },
  {
    name: 'coffee: close crop, rich grade',
    make: () => squarePhoto('coffee.png', 'centre').modulate({ saturation: 1.3 }).linear(1.12, -12),
  },
  { name: 'aurora: drawn by code', make: aurora },
  {
    name: 'rocket: teal-and-orange grade',
    make: () => toneMap(squarePhoto('rocket.jpg', 'centre'), ['#0f2e3d', '#2f8f9d', '#ffb35c', '#fff2dc']),
  },
  { name: 'rings: drawn by code', make: rings },
  {
    name: 'camera: ink-blue duotone',
    make: () => toneMap(squarePhoto('camera.png', 'centre'), ['#101a4a', '#f7e9d7']),
  },
  {
    name: 'hubble: crop, boosted colour',
    make: () => squarePhoto('hubble_deep_field.jpg', 'centre').modulate({ saturation: 1.5, brightness: 1.1 }),
  },
  {
    name: 'grace_hopper: rose duotone',
    make: () => toneMap(squarePhoto('grace_hopper.jpg', 'north'), ['#3a1030', '#ff6b8b', '#fff1f4']),
  },
  { name: 'ribbons: drawn by code', make: ribbons },
];

async function main() {
  mkdirSync(OUT, { recursive: true });
  for (const [index, item] of ITEMS.entries()) {
    const file = path.join(OUT, `${index + 1}.webp`);
    let quality = 78;
    for (;;) {
      const image = await item.make();
      await image.webp({ quality, effort: 6 }).toFile(file);
      if (statSync(file).size <= MAX_BYTES || quality <= 40) break;
      quality -= 6;
    }
    console.log(
      `${path.relative(ROOT, file)}  ${item.name}  q${quality}  ${Math.round(statSync(file).size / 1024)} KB`,
    );
    await writeSizes(index + 1, await (await item.make()).png().toBuffer());
  }
}

/**
 * The gallery's srcset (issue 18): each image in AVIF at every width of GALLERY_WIDTHS, and in WebP
 * at the smaller ones too (the full-size WebP above is the fallback `src`). From the lossless picture.
 */
async function writeSizes(n: number, picture: Buffer) {
  for (const width of GALLERY_WIDTHS) {
    const sized = () => sharp(picture).resize(width, width);
    const avif = path.join(OUT, galleryFile(n, width, 'avif'));
    await sized().avif({ quality: 50, effort: 6 }).toFile(avif);
    const sizes = [`${Math.round(statSync(avif).size / 1024)} KB avif`];
    if (width < SIZE) {
      const webp = path.join(OUT, galleryFile(n, width, 'webp'));
      await sized().webp({ quality: 74, effort: 6 }).toFile(webp);
      sizes.push(`${Math.round(statSync(webp).size / 1024)} KB webp`);
    }
    console.log(`  ${width} px: ${sizes.join(', ')}`);
  }
}

await main();
