import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImageField, InputError, TOO_MANY_SCANS } from './image-input';
import { countJpegScans, MAX_JPEG_SCANS } from './jpeg-scans';
import { manyScansJpeg } from './many-scans-jpeg';

const noise = (width: number, height: number) =>
  sharp(Buffer.from(Array.from({ length: width * height * 3 }, (_, i) => (i * 7919) % 251)), {
    raw: { width, height, channels: 3 },
  });

describe('counting a JPEG’s scans', () => {
  it('counts one scan in a baseline JPEG and libjpeg’s ten in a progressive one, through stuffed data bytes', async () => {
    // Noise makes many 0xFF data bytes (stuffed as FF 00), which must not be taken for markers.
    expect(countJpegScans(await noise(200, 120).jpeg({ quality: 100 }).toBuffer())).toBe(1);
    expect(countJpegScans(await noise(200, 120).jpeg({ progressive: true, quality: 100 }).toBuffer())).toBe(10);
    expect(countJpegScans(await noise(200, 120).jpeg({ mozjpeg: true }).toBuffer())).toBeLessThan(20);
  });

  it('counts the 883 scans of the attack file, which the decoder takes as valid', async () => {
    const attack = manyScansJpeg(256);
    expect(countJpegScans(attack, Number.POSITIVE_INFINITY)).toBe(883);
    expect(await sharp(attack).metadata()).toMatchObject({ format: 'jpeg', isProgressive: true, width: 256 });
    // Counting stops past the limit: a huge file is not read to its end.
    expect(countJpegScans(attack)).toBe(MAX_JPEG_SCANS + 1);
  });

  it('refuses such an upload before any decoder sees it, and takes a normal progressive photo', async () => {
    const rules = { maxBytes: 10_000_000, maxPixels: 40_000_000 };
    // decodeImageField is synchronous and reads only the file's markers: refused here, no decoder
    // (sharp's are all asynchronous) has had the file.
    const refusal = (() => {
      try {
        decodeImageField('image', manyScansJpeg(4096).toString('base64'), rules);
      } catch (error) {
        return error;
      }
    })();
    expect(refusal).toBeInstanceOf(InputError);
    expect((refusal as InputError).message).toBe(TOO_MANY_SCANS);

    const photo = await noise(64, 48).jpeg({ progressive: true }).toBuffer();
    expect(decodeImageField('image', photo.toString('base64'), rules)).toMatchObject({ width: 64, height: 48 });
  });
});
