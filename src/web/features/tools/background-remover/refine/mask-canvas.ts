// The refine editor's pixels (decision 082): the mask as a canvas the photo's size, white where the
// subject stays with its alpha as the mask (what the server reads: grey times alpha), strokes
// painted onto it with a soft edge, and the view drawn from the photo and the mask.
import type { Point, Stroke } from './editor-state';

export type View = { scale: number; offsetX: number; offsetY: number };
export type Backdrop = 'checker' | 'white' | 'black';

/** A canvas holding `mask` (a one-channel PNG, white on black) as white with that alpha. */
export function maskCanvasFrom(mask: HTMLImageElement): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = mask.naturalWidth;
  canvas.height = mask.naturalHeight;
  const context = canvas.getContext('2d', { willReadFrequently: false });
  if (!context) return canvas;
  context.drawImage(mask, 0, 0);
  const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
  const data = pixels.data;
  for (let i = 0; i < data.length; i += 4) {
    data[i + 3] = data[i] ?? 0;
    data[i] = 255;
    data[i + 1] = 255;
    data[i + 2] = 255;
  }
  context.putImageData(pixels, 0, 0);
  return canvas;
}

/** A copy of `source` (the starting mask), to paint on. */
export function copyOf(source: HTMLCanvasElement): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = source.width;
  canvas.height = source.height;
  canvas.getContext('2d')?.drawImage(source, 0, 0);
  return canvas;
}

/** One soft dab: full strength to half its radius, fading to nothing at its edge. */
function dab(context: CanvasRenderingContext2D, at: Point, radius: number) {
  const gradient = context.createRadialGradient(at.x, at.y, radius * 0.5, at.x, at.y, radius);
  gradient.addColorStop(0, 'rgba(255,255,255,1)');
  gradient.addColorStop(1, 'rgba(255,255,255,0)');
  context.fillStyle = gradient;
  context.beginPath();
  context.arc(at.x, at.y, radius, 0, Math.PI * 2);
  context.fill();
}

/** Paints `stroke` from its point `from` on (a stroke being drawn is painted as it grows). */
export function paintStroke(mask: HTMLCanvasElement, stroke: Stroke, from = 0) {
  const context = mask.getContext('2d');
  if (!context) return;
  const radius = Math.max(1, stroke.size / 2);
  context.save();
  // Erase takes alpha away; restore lays white over.
  context.globalCompositeOperation = stroke.brush === 'erase' ? 'destination-out' : 'source-over';
  const spacing = Math.max(1, radius / 4);
  for (let i = Math.max(0, from); i < stroke.points.length; i += 1) {
    const point = stroke.points[i] as Point;
    const previous = stroke.points[i - 1];
    if (!previous || i === from) {
      dab(context, point, radius);
      if (!previous) continue;
    }
    const steps = Math.ceil(Math.hypot(point.x - previous.x, point.y - previous.y) / spacing);
    for (let step = 1; step <= steps; step += 1) {
      const t = step / steps;
      dab(context, { x: previous.x + (point.x - previous.x) * t, y: previous.y + (point.y - previous.y) * t }, radius);
    }
  }
  context.restore();
}

/** The starting mask with every stroke painted again (after an undo or a redo). */
export function replay(start: HTMLCanvasElement, mask: HTMLCanvasElement, strokes: readonly Stroke[]) {
  const context = mask.getContext('2d');
  if (!context) return;
  context.clearRect(0, 0, mask.width, mask.height);
  context.drawImage(start, 0, 0);
  for (const stroke of strokes) paintStroke(mask, stroke);
}

/**
 * Draws the view: the cut-out (the photo through the mask) or, `before`, the photo alone; while
 * restoring, the photo faint under the cut-out, so that what can come back shows.
 */
export function drawView(
  screen: HTMLCanvasElement,
  photo: HTMLImageElement,
  mask: HTMLCanvasElement,
  view: View,
  options: { before: boolean; ghost: boolean },
) {
  const context = screen.getContext('2d');
  if (!context) return;
  context.setTransform(1, 0, 0, 1, 0, 0);
  context.clearRect(0, 0, screen.width, screen.height);
  context.setTransform(view.scale, 0, 0, view.scale, view.offsetX, view.offsetY);
  context.imageSmoothingQuality = 'high';
  context.drawImage(photo, 0, 0, mask.width, mask.height);
  if (options.before) return;
  context.globalCompositeOperation = 'destination-in';
  context.drawImage(mask, 0, 0);
  if (options.ghost) {
    context.globalCompositeOperation = 'destination-over';
    context.globalAlpha = 0.3;
    context.drawImage(photo, 0, 0, mask.width, mask.height);
    context.globalAlpha = 1;
  }
  context.globalCompositeOperation = 'source-over';
}

/** The mask as the PNG the server takes (white, its alpha the mask). */
export function maskBlob(mask: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) =>
    mask.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the mask could not be encoded'))), 'image/png'),
  );
}

/** Loads an image (same origin: its pixels readable). */
export function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.decoding = 'async';
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(`could not load ${url}`));
    image.src = url;
  });
}
