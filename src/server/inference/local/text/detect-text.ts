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

/** ImageNet's statistics, per channel in the B, G, R order PaddleOCR feeds (it reads with OpenCV). */
export const DETECTOR_NORMALISATION = { mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };

export type TextBox = { left: number; top: number; width: number; height: number; score: number };

/** The detector's input size for an image: fits DETECT_MAX_SIDE, each side a multiple of 32. */
export function detectorSize(width: number, height: number): { width: number; height: number } {
  const scale = Math.min(1, DETECT_MAX_SIDE / Math.max(width, height));
  const side = (n: number) => Math.max(32, Math.round((n * scale) / 32) * 32);
  return { width: side(width), height: side(height) };
}

/**
 * Text boxes from the probability map (`width` x `height`), in the map's pixels, top to bottom then
 * left to right.
 */
export function boxesFromMap(map: Float32Array, width: number, height: number): TextBox[] {
  const size = width * height;
  // 1: text not yet visited; 0: background or visited. Typed arrays and no allocation per pixel:
  // this runs on the main thread.
  const open = new Uint8Array(size);
  for (let p = 0; p < size; p += 1) open[p] = (map[p] as number) > PIXEL_THRESHOLD ? 1 : 0;
  const stack = new Int32Array(size);
  const boxes: TextBox[] = [];
  for (let start = 0; start < size; start += 1) {
    if (open[start] === 0) continue;
    open[start] = 0;
    let top = 1;
    stack[0] = start;
    let [minX, minY, maxX, maxY, sum, count] = [width, height, 0, 0, 0, 0];
    while (top > 0) {
      top -= 1;
      const p = stack[top] as number;
      const x = p % width;
      const y = (p - x) / width;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
      sum += map[p] as number;
      count += 1;
      if (x > 0 && open[p - 1] === 1) {
        open[p - 1] = 0;
        stack[top++] = p - 1;
      }
      if (x < width - 1 && open[p + 1] === 1) {
        open[p + 1] = 0;
        stack[top++] = p + 1;
      }
      if (y > 0 && open[p - width] === 1) {
        open[p - width] = 0;
        stack[top++] = p - width;
      }
      if (y < height - 1 && open[p + width] === 1) {
        open[p + width] = 0;
        stack[top++] = p + width;
      }
    }
    const [w, h] = [maxX - minX + 1, maxY - minY + 1];
    const score = sum / count;
    if (Math.min(w, h) < MIN_REGION_SIDE || score < REGION_THRESHOLD) continue;
    const grow = (w * h * UNCLIP_RATIO) / (2 * (w + h));
    const left = Math.max(0, Math.floor(minX - grow));
    const boxTop = Math.max(0, Math.floor(minY - grow));
    const right = Math.min(width, Math.ceil(maxX + 1 + grow));
    const bottom = Math.min(height, Math.ceil(maxY + 1 + grow));
    boxes.push({ left, top: boxTop, width: right - left, height: bottom - boxTop, score });
  }
  return boxes.sort((a, b) => a.top - b.top || a.left - b.left);
}
