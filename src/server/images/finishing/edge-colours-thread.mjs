// Clean edges (issue 58, decision 080) in a thread of its own: a pixel loop over every pixel of a
// cut-out must not run on the thread that serves HTTP (in a one-process server the job worker shares
// it). Plain JavaScript on purpose: a worker does not inherit the TypeScript loader the server
// registers. Protocol (edge-colours.ts): per message { id, rgba: Uint8Array, width, height } answers
// { id, rgba } (the same pixels, their colours at the soft edge cleaned) or { id, error }.
//
// The estimate is Forte & Pitié's blur-fusion ("Approximate fast foreground colour estimation",
// ICIP 2021): the foreground F and background B colours near each pixel are alpha-weighted box means
// of the photo, corrected once by the compositing equation I = αF + (1 - α)B, then a second, small
// pass with the first pass's F and B. Only pixels with alpha in the soft band change.
import { parentPort } from 'node:worker_threads';

/** Alpha (0-255) at or under this is background, at or over EDGE_HIGH subject: both left as they are. */
const EDGE_LOW = 5;
const EDGE_HIGH = 250;

/**
 * In-place mean of each (2k+1)-square window, cut at the image's border (the mean of what is inside:
 * the ratios below divide two means over the same window, so the cut cancels). Separable running
 * sums; the vertical pass keeps a ring of the last k + 1 original rows, so no second image is needed.
 */
function boxMean(values, width, height, k, ring) {
  const row = ring.row;
  for (let y = 0; y < height; y++) {
    const base = y * width;
    for (let x = 0; x < width; x++) row[x] = values[base + x];
    let sum = 0;
    const reach = Math.min(k, width - 1);
    for (let x = 0; x <= reach; x++) sum += row[x];
    for (let x = 0; x < width; x++) {
      const first = Math.max(0, x - k);
      const last = Math.min(width - 1, x + k);
      values[base + x] = sum / (last - first + 1);
      if (x + k + 1 < width) sum += row[x + k + 1];
      if (x - k >= 0) sum -= row[x - k];
    }
  }
  const sums = ring.sums;
  const kept = ring.kept;
  const slots = k + 1;
  sums.fill(0);
  for (let y = 0; y <= Math.min(k, height - 1); y++) {
    const base = y * width;
    for (let x = 0; x < width; x++) sums[x] += values[base + x];
  }
  for (let y = 0; y < height; y++) {
    const base = y * width;
    const slot = (y % slots) * width;
    const count = Math.min(height - 1, y + k) - Math.max(0, y - k) + 1;
    for (let x = 0; x < width; x++) {
      kept[slot + x] = values[base + x];
      values[base + x] = sums[x] / count;
    }
    const next = y + k + 1;
    if (next < height) {
      const nextBase = next * width;
      for (let x = 0; x < width; x++) sums[x] += values[nextBase + x];
    }
    const gone = y - k;
    if (gone >= 0) {
      const goneSlot = (gone % slots) * width;
      for (let x = 0; x < width; x++) sums[x] -= kept[goneSlot + x];
    }
  }
}

/**
 * Half-widths of the two passes' boxes: the first wide enough to reach from a soft edge into clean
 * subject and clean background (the paper's 90 px box on its ~2 MP test images, scaled by the
 * longer side: 6% of it, 16 px at least; bench/edges.ts measured 3% to 9%, 6% was best), the second
 * small (0.4%, 3 px at least). The running sums cost the same whatever the width.
 */
export function radii(width, height) {
  const long = Math.max(width, height);
  return [Math.max(16, Math.round(long * 0.06)), Math.max(3, Math.round(long * 0.004))];
}

/** The cut-out `rgba` (8-bit, 4 channels) with its soft edge's colours replaced by the estimated foreground's. */
export function cleanEdgeColours(rgba, width, height) {
  const n = width * height;
  let soft = 0;
  for (let i = 0; i < n; i++) {
    const a = rgba[i * 4 + 3];
    if (a > EDGE_LOW && a < EDGE_HIGH) soft++;
  }
  if (soft === 0) return rgba;
  const [wide, narrow] = radii(width, height);
  const ring = (k) => ({
    row: new Float64Array(width),
    sums: new Float64Array(width),
    kept: new Float32Array((k + 1) * width),
  });
  const ringWide = ring(wide);
  const ringNarrow = ring(narrow);
  // Four images of floats (16 bytes a pixel) besides the cut-out: alpha is read from it as needed.
  const meanAlphaWide = new Float32Array(n);
  for (let i = 0; i < n; i++) meanAlphaWide[i] = rgba[i * 4 + 3] / 255;
  const meanAlphaNarrow = Float32Array.from(meanAlphaWide);
  boxMean(meanAlphaWide, width, height, wide, ringWide);
  boxMean(meanAlphaNarrow, width, height, narrow, ringNarrow);
  const f = new Float32Array(n);
  const b = new Float32Array(n);
  const tiny = 1e-5;
  for (let c = 0; c < 3; c++) {
    // Pass 1, with F = B = the photo: F and B as alpha-weighted means, then corrected.
    for (let i = 0; i < n; i++) {
      const value = rgba[i * 4 + c] / 255;
      const a = rgba[i * 4 + 3] / 255;
      f[i] = value * a;
      b[i] = value * (1 - a);
    }
    boxMean(f, width, height, wide, ringWide);
    boxMean(b, width, height, wide, ringWide);
    for (let i = 0; i < n; i++) {
      const a = rgba[i * 4 + 3] / 255;
      const meanF = f[i] / (meanAlphaWide[i] + tiny);
      const meanB = b[i] / (1 - meanAlphaWide[i] + tiny);
      const photo = rgba[i * 4 + c] / 255;
      const corrected = meanF + a * (photo - a * meanF - (1 - a) * meanB);
      // The next pass's weighted inputs: F·α and B·(1 - α).
      f[i] = Math.min(1, Math.max(0, corrected)) * a;
      b[i] = meanB * (1 - a);
    }
    // Pass 2, small: the same with pass 1's F and B.
    boxMean(f, width, height, narrow, ringNarrow);
    boxMean(b, width, height, narrow, ringNarrow);
    for (let i = 0; i < n; i++) {
      const at = i * 4;
      const alpha8 = rgba[at + 3];
      if (alpha8 <= EDGE_LOW || alpha8 >= EDGE_HIGH) continue;
      const a = alpha8 / 255;
      const meanF = f[i] / (meanAlphaNarrow[i] + tiny);
      const meanB = b[i] / (1 - meanAlphaNarrow[i] + tiny);
      const photo = rgba[at + c] / 255;
      const estimate = meanF + a * (photo - a * meanF - (1 - a) * meanB);
      rgba[at + c] = Math.round(Math.min(1, Math.max(0, estimate)) * 255);
    }
  }
  return rgba;
}

parentPort?.on('message', ({ id, rgba, width, height }) => {
  try {
    const cleaned = cleanEdgeColours(rgba, width, height);
    parentPort.postMessage({ id, rgba: cleaned }, [cleaned.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String(error) });
  }
});
