// The demo provider's pictures: clearly labelled placeholders that each tool folder composes into
// its demo output (tools/<tool-id>/index.ts). Deterministic from the inputs, the right size and
// format, and the word DEMO on every image. Never presented as AI: the image tools only resize or
// tint the upload, and the analyzer reports measured colours and plain image properties.
import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { type AspectRatio, METAMORPHOSE_SIZES } from '../../../contract/tools';
import type { ImageInput, OutputImage } from '../../images/image-types';
import { escapeMarkup } from '../../markup/escape-markup';
import type { Color, Keyword, ToolResult } from '../provider';

/** The generators' output size per aspect ratio (the same as Metamorphose's sizes). */
export const DEMO_SIZES: Record<AspectRatio, { width: number; height: number }> = METAMORPHOSE_SIZES;

/** Two colours from the text, so the same prompt always gives the same picture. */
function palette(seed: string): [string, string] {
  const hash = createHash('sha256').update(seed).digest();
  const hue = (i: number) => Math.round(((hash[i] ?? 0) / 255) * 360);
  return [`hsl(${hue(0)} 70% 55%)`, `hsl(${hue(1)} 75% 45%)`];
}

function wrap(text: string, perLine: number, maxLines: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (`${line} ${word}`.trim().length > perLine) {
      lines.push(line);
      line = word;
    } else line = `${line} ${word}`.trim();
    if (lines.length === maxLines) break;
  }
  if (line && lines.length < maxLines) lines.push(line);
  return lines;
}

/**
 * Where a card's lines go, as fractions of its height: the text alone fills the card; with an
 * upload (Metamorphose, Background Swap) the text moves up and the upload gets the lower part,
 * clear of the footer.
 */
const CARD_LAYOUTS = {
  text: { demo: 0.3, prompt: 0.55, promptLines: 6 },
  'with-upload': { demo: 0.16, prompt: 0.3, promptLines: 2 },
} as const;

/** The box the upload is fitted into on a `with-upload` card, as fractions of the card. */
const UPLOAD_BOX = { top: 0.4, height: 0.48, width: 0.8 };

/** A gradient card with DEMO and the prompt on it. */
export function promptCard(
  width: number,
  height: number,
  seed: string,
  title: string,
  text: string,
  layout: keyof typeof CARD_LAYOUTS = 'text',
): Buffer {
  const [from, to] = palette(seed);
  const unit = Math.min(width, height) / 1024;
  const place = CARD_LAYOUTS[layout];
  const lines = wrap(text, Math.round(width / (28 * unit)), place.promptLines)
    .map((l, i) => `<tspan x="50%" dy="${i === 0 ? 0 : 46 * unit}">${escapeMarkup(l)}</tspan>`)
    .join('');
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>
  <text x="50%" y="${height * place.demo}" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${160 * unit}" fill="white" fill-opacity="0.92">DEMO</text>
  <text x="50%" y="${height * place.demo + 70 * unit}" text-anchor="middle" font-family="sans-serif" font-size="${30 * unit}" fill="white">${escapeMarkup(title)}</text>
  <text x="50%" y="${height * place.prompt}" text-anchor="middle" font-family="sans-serif" font-size="${36 * unit}" fill="white">${lines}</text>
  <text x="50%" y="${height - 40 * unit}" text-anchor="middle" font-family="sans-serif" font-size="${24 * unit}" fill="white" fill-opacity="0.85">Demo output: a labelled sample, not AI.</text>
</svg>`);
}

/** A DEMO badge for the corner of a processed upload. */
function badge(width: number, height: number): Buffer {
  const size = Math.max(14, Math.round(Math.min(width, height) / 12));
  const w = size * 4;
  const h = Math.round(size * 1.6);
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
  <rect width="100%" height="100%" rx="${h / 4}" fill="#111" fill-opacity="0.72"/>
  <text x="50%" y="68%" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${size}" fill="white">DEMO</text>
</svg>`);
}

async function labelled(image: Sharp, width: number, height: number): Promise<Sharp> {
  const badgeSvg = badge(width, height);
  const meta = await sharp(badgeSvg).metadata();
  const fits = (meta.width ?? 0) < width && (meta.height ?? 0) < height;
  return fits ? sharp(await image.toBuffer()).composite([{ input: badgeSvg, gravity: 'southeast' }]) : image;
}

export const webp = async (image: Sharp, quality = 80): Promise<OutputImage> => ({
  bytes: await image.webp({ quality }).toBuffer(),
  contentType: 'image/webp',
});

/**
 * The size the image is shown at: the upload's header size is the stored one, which a photo taken
 * sideways (EXIF orientation 5-8) has turned a quarter.
 */
async function uprightSize(input: ImageInput): Promise<{ width: number; height: number }> {
  return (await sharp(input.bytes).metadata()).autoOrient;
}

export async function resized(input: ImageInput, scale: number, tint?: 'sepia'): Promise<Sharp> {
  const upright = await uprightSize(input);
  const width = upright.width * scale;
  const height = upright.height * scale;
  let image = sharp(input.bytes).rotate().resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
  // In one pipeline sharp applies greyscale after the tint, which leaves it grey: grey first, then tint.
  if (tint === 'sepia') image = sharp(await image.greyscale().png().toBuffer()).tint('#c8a27a');
  return labelled(image, width, height);
}

export async function analyze(input: ImageInput): Promise<{ keywords: Keyword[]; colors: Color[] }> {
  const { data, info } = await sharp(input.bytes).resize(48, 48, { fit: 'inside' }).removeAlpha().raw().toBuffer({
    resolveWithObject: true,
  });
  // Bucket every pixel to 4 levels per channel and keep the five commonest buckets.
  const counts = new Map<number, { n: number; r: number; g: number; b: number }>();
  for (let i = 0; i < data.length; i += info.channels) {
    const [r, g, b] = [data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0];
    const key = ((r >> 6) << 4) | ((g >> 6) << 2) | (b >> 6);
    const c = counts.get(key) ?? { n: 0, r: 0, g: 0, b: 0 };
    counts.set(key, { n: c.n + 1, r: c.r + r, g: c.g + g, b: c.b + b });
  }
  const top = [...counts.values()].sort((a, b) => b.n - a.n).slice(0, 5);
  const total = top.reduce((sum, c) => sum + c.n, 0);
  const hex = (v: number) => Math.round(v).toString(16).padStart(2, '0');
  const colors = top.map((c) => {
    const [r, g, b] = [c.r / c.n, c.g / c.n, c.b / c.n];
    const light = (r + g + b) / 3;
    const name =
      light > 200 ? 'light' : light < 60 ? 'dark' : r > g && r > b ? 'reddish' : g > b ? 'greenish' : 'bluish';
    return {
      hex: `#${hex(r)}${hex(g)}${hex(b)}`,
      name: `${name} (demo)`,
      percentage: Math.round((c.n / total) * 1000) / 10,
    };
  });
  const { width, height } = await uprightSize(input);
  const orientation = width > height ? 'landscape' : width < height ? 'portrait' : 'square';
  return {
    keywords: [
      { keyword: 'demo', score: 1 },
      { keyword: orientation, score: 1 },
    ],
    colors,
  };
}

/** `count` prompt cards (Text to Pic, Text Lab), each its own colours. */
export async function promptCards(
  prompt: string,
  options: { count: number; size: { width: number; height: number }; title: string; quality: number },
): Promise<ToolResult> {
  const { width, height } = options.size;
  const images = await Promise.all(
    Array.from({ length: options.count }, (_, i) =>
      webp(sharp(promptCard(width, height, `${prompt}#${i}`, options.title, prompt)), options.quality),
    ),
  );
  return { kind: 'images', images };
}

/** The upload on `count` prompt cards (Metamorphose, Background Swap), below the text, above the footer. */
export async function uploadOnCards(
  image: ImageInput,
  prompt: string,
  options: { count: number; size: { width: number; height: number }; title: string; quality: number },
): Promise<ToolResult> {
  const { width, height } = options.size;
  const box = { width: Math.round(width * UPLOAD_BOX.width), height: Math.round(height * UPLOAD_BOX.height) };
  const subject = await sharp(image.bytes).rotate().resize(box.width, box.height, { fit: 'inside' }).png().toBuffer();
  const fitted = await sharp(subject).metadata();
  const left = Math.round((width - (fitted.width ?? box.width)) / 2);
  const top = Math.round(height * UPLOAD_BOX.top + (box.height - (fitted.height ?? box.height)) / 2);
  const images = await Promise.all(
    Array.from({ length: options.count }, (_, i) =>
      webp(
        sharp(promptCard(width, height, `${prompt}#${i}`, options.title, prompt, 'with-upload')).composite([
          { input: subject, left, top },
        ]),
        options.quality,
      ),
    ),
  );
  return { kind: 'images', images };
}

/** The upload resized by `scale` (and tinted), labelled, as webp: the image tools' demo output. */
export async function resizedUpload(image: ImageInput, scale: number, tint?: 'sepia'): Promise<ToolResult> {
  return { kind: 'images', images: [await webp(await resized(image, scale, tint))] };
}
