// Test and benchmark helper: a fixture image from test/fixtures/images as the checked ImageInput
// a job receives (real format sniffed from the bytes, real dimensions).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { readDimensions, sniffFormat } from '../../../images/image-input';
import type { ImageInput } from '../../../images/image-types';

export const FIXTURE_IMAGES = path.resolve(import.meta.dirname, '../../../../../test/fixtures/images');

export async function imageInputFrom(bytes: Buffer): Promise<ImageInput> {
  const mime = sniffFormat(bytes);
  const size = mime && readDimensions(bytes, mime);
  if (!mime || !size) throw new Error('not an image this app accepts');
  return { bytes, mime, ...size };
}

export async function fixtureImage(name: string): Promise<ImageInput> {
  return imageInputFrom(await readFile(path.join(FIXTURE_IMAGES, name)));
}
