// A progressive JPEG is decoded once per scan: a file of hundreds of scans that each say "nothing
// here" (end-of-band runs, a few bytes each) is small and valid, yet takes libjpeg tens of seconds
// at 40 megapixels, and libvips sets no limit (issue 36). Counting the scans reads only the markers,
// so such a file is refused before anything decodes it, as libjpeg-turbo's `-maxscans` would.

/**
 * The most scans an upload may have. Encoders make 1 (baseline) to about 10 (libjpeg's and
 * mozjpeg's progressive scripts, Photoshop's 3-5); the attack files had 883-2,649. Decoding costs
 * scans x pixels: 100 scans of 40 megapixels is still about a second, which the decode's time limit
 * (image-decode.ts) bounds.
 */
export const MAX_JPEG_SCANS = 100;

/**
 * How many start-of-scan markers the JPEG holds, counted up to `stopAfter` (a file past the limit
 * is not read to its end). Walks the marker segments; inside a scan's entropy-coded data it jumps
 * from one 0xFF byte to the next (a byte-stuffed 0xFF00 or a restart marker continues the data).
 */
export function countJpegScans(bytes: Buffer, stopAfter = MAX_JPEG_SCANS + 1): number {
  let scans = 0;
  let offset = 2; // after SOI
  while (offset + 4 <= bytes.length && scans < stopAfter) {
    if (bytes[offset] !== 0xff) return scans; // not a marker: damaged, the decoder will say so
    const marker = bytes[offset + 1] as number;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xd9) return scans; // EOI
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2; // markers without a length
      continue;
    }
    const segmentEnd = offset + 2 + bytes.readUInt16BE(offset + 2);
    if (marker !== 0xda) {
      offset = segmentEnd;
      continue;
    }
    scans += 1;
    offset = nextMarkerAfterScan(bytes, segmentEnd);
  }
  return scans;
}

/** The offset of the first marker after the entropy-coded data that starts at `from`. */
function nextMarkerAfterScan(bytes: Buffer, from: number): number {
  let at = bytes.indexOf(0xff, from);
  while (at !== -1 && at + 1 < bytes.length) {
    const next = bytes[at + 1] as number;
    // 0x00: a stuffed 0xFF data byte; D0-D7: restart markers, part of the scan; 0xFF: fill.
    if (next !== 0x00 && !(next >= 0xd0 && next <= 0xd7) && next !== 0xff) return at;
    at = bytes.indexOf(0xff, at + (next === 0xff ? 1 : 2));
  }
  return bytes.length;
}
