// DB text detection's pre- and post-processing (PaddleOCR's DBPostProcess, simplified to upright
// boxes): the image normalised for the detector, then its probability map thresholded, each
// connected region scored and boxed, and the box grown back to the text's full size (the network is
// trained on shrunk text regions).

/** The detector sees the image at most this long (PaddleOCR's default limit), in multiples of 32. */
export const DETECT_MAX_SIDE = 960;
/** A map pixel above this probability is text (PaddleOCR's `det_db_thresh`). */
const PIXEL_THRESHOLD = 0.3;
/** A region whose mean probability is below this is dropped (PaddleOCR's `det_db_box_thresh`). */
const REGION_THRESHOLD = 0.6;
/** How far a region is grown: area x ratio / perimeter (PaddleOCR's `det_db_unclip_ratio`). */
const UNCLIP_RATIO = 1.5;
/** Regions thinner than this (map pixels) are noise. */
const MIN_REGION_SIDE = 3;

// ImageNet's statistics, per channel in the B, G, R order PaddleOCR feeds (it reads with OpenCV).
const MEAN = [0.485, 0.456, 0.406];
const STD = [0.229, 0.224, 0.225];

export type TextBox = { left: number; top: number; width: number; height: number; score: number };

/** The detector's input size for an image: fits DETECT_MAX_SIDE, each side a multiple of 32. */
export function detectorSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, DETECT_MAX_SIDE / Math.max(width, height));
  const side = (n: number) => Math.max(32, Math.round((n * scale) / 32) * 32);
  return { width: side(width), height: side(height) };
}

/** Planar BGR floats from packed RGB pixels, ImageNet-normalised. */
export function toDetectorInput(rgb: Buffer, width: number, height: number): Float32Array {
  const plane = width * height;
  const input = new Float32Array(plane * 3);
  for (let p = 0; p < plane; p += 1) {
    for (let c = 0; c < 3; c += 1) {
      const value = (rgb[p * 3 + (2 - c)] ?? 0) / 255;
      input[c * plane + p] = (value - (MEAN[c] ?? 0)) / (STD[c] ?? 1);
    }
  }
  return input;
}

/**
 * Text boxes from the probability map (`width` x `height`), in the map's pixels, top to bottom then
 * left to right.
 */
export function boxesFromMap(map: Float32Array, width: number, height: number): TextBox[] {
  const label = new Int32Array(width * height);
  const boxes: TextBox[] = [];
  const stack: number[] = [];
  let next = 0;
  for (let start = 0; start < map.length; start += 1) {
    if (label[start] !== 0 || (map[start] ?? 0) <= PIXEL_THRESHOLD) continue;
    next += 1;
    label[start] = next;
    stack.push(start);
    let [minX, minY, maxX, maxY, sum, count] = [width, height, 0, 0, 0, 0];
    while (stack.length > 0) {
      const p = stack.pop() as number;
      const x = p % width;
      const y = (p - x) / width;
      [minX, minY, maxX, maxY] = [Math.min(minX, x), Math.min(minY, y), Math.max(maxX, x), Math.max(maxY, y)];
      sum += map[p] ?? 0;
      count += 1;
      const neighbours = [x > 0 ? p - 1 : -1, x < width - 1 ? p + 1 : -1, p - width, p + width];
      for (const n of neighbours) {
        if (n < 0 || n >= map.length || label[n] !== 0 || (map[n] ?? 0) <= PIXEL_THRESHOLD) continue;
        label[n] = next;
        stack.push(n);
      }
    }
    const [w, h] = [maxX - minX + 1, maxY - minY + 1];
    const score = sum / count;
    if (Math.min(w, h) < MIN_REGION_SIDE || score < REGION_THRESHOLD) continue;
    const grow = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    const left = Math.max(0, Math.floor(minX - grow));
    const top = Math.max(0, Math.floor(minY - grow));
    const right = Math.min(width, Math.ceil(maxX + 1 + grow));
    const bottom = Math.min(height, Math.ceil(maxY + 1 + grow));
    boxes.push({ left, top, width: right - left, height: bottom - top, score });
  }
  return boxes.sort((a, b) => a.top - b.top || a.left - b.left);
}
