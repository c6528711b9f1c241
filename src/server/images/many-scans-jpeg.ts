// Test helper: the attack file of issue 36, built rather than checked in. A valid grey progressive
// JPEG whose every coefficient is zero, in 1 + 63 x 14 = 883 scans: the DC, then each AC band at
// each of 14 levels of successive approximation, each scan a few bytes of end-of-band runs. libjpeg
// reads it as valid and decodes every scan over the whole image.

/** Writes bits MSB first, with the byte stuffing JPEG's entropy-coded data needs. */
class BitWriter {
  private readonly bytes: number[] = [];
  private current = 0;
  private filled = 0;

  write(value: number, length: number) {
    for (let bit = length - 1; bit >= 0; bit--) {
      this.current = (this.current << 1) | ((value >> bit) & 1);
      if (++this.filled === 8) this.flushByte();
    }
  }

  /** Pads the last byte with ones, as the standard asks, and answers the scan's data. */
  finish(): number[] {
    if (this.filled > 0) this.write(0xff, 8 - this.filled);
    return this.bytes;
  }

  private flushByte() {
    this.bytes.push(this.current);
    if (this.current === 0xff) this.bytes.push(0x00);
    this.current = 0;
    this.filled = 0;
  }
}

const segment = (marker: number, body: number[]) => [
  0xff,
  marker,
  (body.length + 2) >> 8,
  (body.length + 2) & 0xff,
  ...body,
];

/** A `side` x `side` grey JPEG of 883 progressive scans (1 + 63 bands x 14 approximation levels). */
export function manyScansJpeg(side: number): Buffer {
  const blocks = Math.ceil(side / 8) ** 2;
  // DC: one symbol (category 0) coded '0'. AC: EOB0..EOB14 (0x00, 0x10, ... 0xE0), 4 bits each.
  const eobSymbols = Array.from({ length: 15 }, (_, n) => n << 4);
  const dht = [
    ...[0x00, 1, ...new Array(15).fill(0), 0x00],
    ...[0x10, 0, 0, 0, 15, ...new Array(12).fill(0), ...eobSymbols],
  ];
  const out: number[] = [
    0xff,
    0xd8,
    ...segment(0xdb, [0x00, ...new Array(64).fill(1)]),
    ...segment(0xc2, [8, side >> 8, side & 0xff, side >> 8, side & 0xff, 1, 1, 0x11, 0]),
    ...segment(0xc4, dht),
  ];
  const scan = (ss: number, se: number, ah: number, al: number, data: number[]) =>
    out.push(...segment(0xda, [1, 1, 0x00, ss, se, (ah << 4) | al]), ...data);

  const dc = new BitWriter();
  for (let i = 0; i < blocks; i++) dc.write(0, 1);
  scan(0, 0, 0, 0, dc.finish());
  // Every block's band is zero: end-of-band runs of up to 32,767 blocks cover the image.
  const endOfBands = () => {
    const bits = new BitWriter();
    for (let left = blocks; left > 0; ) {
      const run = Math.min(left, 32_767);
      const n = Math.floor(Math.log2(run));
      bits.write(n, 4); // the code of EOBn (symbol n << 4) is n in 4 bits
      bits.write(run - 2 ** n, n);
      left -= run;
    }
    return bits.finish();
  };
  for (let band = 1; band <= 63; band++) {
    scan(band, band, 0, 13, endOfBands());
    for (let level = 13; level >= 1; level--) scan(band, band, level, level - 1, endOfBands());
  }
  out.push(0xff, 0xd9);
  return Buffer.from(out);
}
