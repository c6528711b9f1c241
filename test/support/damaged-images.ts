// Uploads whose headers pass every check made before decoding (format, size, complete ending) but
// whose pixels cannot be decoded: made here, byte by byte, from real images made with sharp.
import { crc32 } from 'node:zlib';
import sharp from 'sharp';

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** Noise compresses badly, so that cutting the file loses many rows of pixels. */
const noise = (width: number, height: number) =>
  sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i * 7919) % 251)), {
    raw: { width, height, channels: 3 },
  });

export async function damagedImages() {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(64, 0);
  header.writeUInt32BE(48, 4);
  header[8] = 8; // 8 bits per channel
  header[9] = 2; // RGB
  const garbage = Buffer.from(Array.from({ length: 500 }, (_, i) => (i * 37 + 11) & 255));
  const corruptPng = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', garbage),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);

  const jpeg = await noise(200, 150).jpeg({ quality: 90 }).toBuffer();
  // Half the file, then the end-of-image marker the completeness check looks for.
  const truncatedJpeg = Buffer.concat([jpeg.subarray(0, jpeg.length >> 1), Buffer.from([0xff, 0xd9])]);
  // The start-of-frame claims 2000x1500 pixels; the data holds 200x150.
  const oversizedJpeg = Buffer.from(jpeg);
  const frame = oversizedJpeg.indexOf(Buffer.from([0xff, 0xc0]));
  oversizedJpeg.writeUInt16BE(1500, frame + 5);
  oversizedJpeg.writeUInt16BE(2000, frame + 7);

  const webp = await noise(200, 150).webp({ quality: 80 }).toBuffer();
  if (webp.toString('ascii', 12, 16) !== 'VP8 ') throw new Error('expected a lossy (VP8) webp');
  // The VP8 frame header claims 2000x1500.
  const oversizedWebp = Buffer.from(webp);
  oversizedWebp.writeUInt16LE(2000, 26);
  oversizedWebp.writeUInt16LE(1500, 28);

  return { corruptPng, truncatedJpeg, oversizedJpeg, oversizedWebp };
}
