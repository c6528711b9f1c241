// A contact sheet: the same crop of each version of a photo side by side, each labelled under it,
// enlarged with nearest neighbour so that every pixel (and every JPEG block) stays visible.
import sharp from 'sharp';
import { fromRaw, type RawImage } from '../../src/server/inference/local/raw-image';

export type Panel = { label: string; image: RawImage };
/** The part of each panel's image shown, in its own pixels. */
export type Crop = { left: number; top: number; width: number; height: number };

const ZOOM = 2;
const LABEL_HEIGHT = 28;
const GAP = 4;

/** Every panel shows `crop` of an image of the original's size (other sizes are scaled to it first). */
export async function contactSheet(panels: Panel[], crop: Crop, originalWidth: number): Promise<Buffer> {
  const w = crop.width * ZOOM;
  const h = crop.height * ZOOM;
  const tiles = await Promise.all(
    panels.map(async ({ label, image }, i) => {
      const k = image.width / originalWidth;
      const region = {
        left: Math.round(crop.left * k),
        top: Math.round(crop.top * k),
        width: Math.round(crop.width * k),
        height: Math.round(crop.height * k),
      };
      const input = await fromRaw(image)
        .extract(region)
        .resize(w, h, { kernel: 'nearest', fit: 'fill' })
        .png()
        .toBuffer();
      const caption = Buffer.from(
        `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${LABEL_HEIGHT}"><rect width="100%" height="100%" fill="#fff"/>` +
          `<text x="${w / 2}" y="19" font-family="DejaVu Sans, sans-serif" font-size="14" text-anchor="middle" fill="#111">${escapeXml(label)}</text></svg>`,
      );
      const left = i * (w + GAP);
      return [
        { input, left, top: 0 },
        { input: caption, left, top: h },
      ];
    }),
  );
  return sharp({
    create: { width: panels.length * (w + GAP) - GAP, height: h + LABEL_HEIGHT, channels: 3, background: '#fff' },
  })
    .composite(tiles.flat())
    .png({ compressionLevel: 9 })
    .toBuffer();
}

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
