// Uploaded images, checked before anything is charged: the payload form (bare base64 or a data URL,
// the same for every tool: contract/tool-requests.ts IMAGE_FIELD_MESSAGE),
// the real format read from the bytes (PNG, JPEG, WEBP only: an SVG or anything else is refused
// whatever it claims to be), the byte size, the dimensions from the header and the pixel count
// (a 50000x50000 header is refused before any decoder sees it), the shape the tool's models can
// take, that the file is complete, and that a JPEG's scans are few enough to decode (jpeg-scans.ts).
import {
  IMAGE_MAX_BYTES,
  IMAGE_MAX_PIXELS,
  IMAGE_MAX_PIXELS_LABEL,
  INPUT_MESSAGES,
  isSentence,
} from '../../contract/input-limits';
import { IMAGE_FIELD_MESSAGE } from '../../contract/tool-requests';
import type { ImageInput, ImageMime } from './image-types';
import { countJpegScans, MAX_JPEG_SCANS } from './jpeg-scans';

export class InputError extends Error {
  override name = 'InputError';
  constructor(
    readonly field: string,
    readonly reason: string,
    readonly status: 400 | 413 = 400,
  ) {
    // A reason that is a sentence for the user is the answer alone; a developer's names the field.
    super(isSentence(reason) ? reason : `${field}: ${reason}`);
  }
}

export type ImageRules = {
  maxBytes: number;
  maxPixels: number;
  /** The message for too many bytes (the spec has its own for the 5 MB uploads). */
  tooLargeMessage?: string;
  /** How the pixel limit is put to the user (default: 40 megapixels). */
  pixelLimitLabel?: string;
  /** The longest side allowed, when the output would outgrow its format (upscales). */
  maxSide?: number;
  /** The shortest side allowed, and how many times the shortest the longest may be (the tool's models). */
  minSide?: number;
  maxAspect?: number;
};

/** Our documented limit for the other tools' images (the contract's, which the pages check too). */
export const DEFAULT_IMAGE_MAX_BYTES = IMAGE_MAX_BYTES;
/** Our documented pixel limit: 40 megapixels (e.g. 8000 x 5000). */
export const DEFAULT_MAX_PIXELS = IMAGE_MAX_PIXELS;

export const TOO_MANY_SCANS = INPUT_MESSAGES.imageTooManyScans(MAX_JPEG_SCANS);

/** Room for a data URL's prefix (`data:image/jpeg;base64,` and parameters) in the early size check. */
const DATA_URL_ALLOWANCE = 256;

const DATA_URL = /^data:[^;,]*(?:;[^;,]*)*;base64,/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The base64 text of an image field, the one rule of every tool: the bare base64 of the file, or a
 * data URL in base64 whatever its media type says (the bytes are sniffed). Whitespace in the base64
 * (line-wrapped encoders) is dropped. Null for anything else.
 */
export function imagePayload(value: string): string | null {
  const prefix = DATA_URL.exec(value);
  const payload = (prefix ? value.slice(prefix[0].length) : value).replace(/\s+/g, '');
  return payload.length % 4 === 0 && BASE64.test(payload) ? payload : null;
}

export function decodeImageField(field: string, value: unknown, rules: ImageRules): ImageInput {
  if (value === undefined || value === '') throw new InputError(field, 'an image is required');
  if (typeof value !== 'string') throw new InputError(field, IMAGE_FIELD_MESSAGE);
  // A base64 string of N characters holds about 3N/4 bytes: refuse oversize before reading it.
  if (Math.floor((value.length * 3) / 4) > rules.maxBytes + 3 + DATA_URL_ALLOWANCE) throw tooLarge(field, rules);
  const compact = imagePayload(value);
  if (compact === null) throw new InputError(field, IMAGE_FIELD_MESSAGE);
  const bytes = Buffer.from(compact, 'base64');
  if (bytes.length === 0) throw new InputError(field, 'an image is required');
  if (bytes.length > rules.maxBytes) throw tooLarge(field, rules);

  const mime = sniffFormat(bytes);
  if (!mime) throw new InputError(field, INPUT_MESSAGES.imageWrongFormat);
  const size = readDimensions(bytes, mime);
  if (!size || size.width < 1 || size.height < 1) throw new InputError(field, INPUT_MESSAGES.imageDamaged);
  if (size.width * size.height > rules.maxPixels) {
    throw new InputError(
      field,
      INPUT_MESSAGES.imageTooManyPixels(size.width, size.height, rules.pixelLimitLabel ?? IMAGE_MAX_PIXELS_LABEL),
      413,
    );
  }
  const shortest = Math.min(size.width, size.height);
  if (rules.minSide !== undefined && shortest < rules.minSide) {
    throw new InputError(field, INPUT_MESSAGES.imageTooSmall(size.width, size.height, rules.minSide));
  }
  if (rules.maxSide !== undefined && Math.max(size.width, size.height) > rules.maxSide) {
    throw new InputError(field, INPUT_MESSAGES.imageSideTooLong(size.width, size.height, rules.maxSide), 413);
  }
  if (rules.maxAspect !== undefined && Math.max(size.width, size.height) > shortest * rules.maxAspect) {
    throw new InputError(field, INPUT_MESSAGES.imageTooNarrow(size.width, size.height, rules.maxAspect));
  }
  if (!isComplete(bytes, mime)) throw new InputError(field, INPUT_MESSAGES.imageIncomplete);
  if (mime === 'image/jpeg' && countJpegScans(bytes) > MAX_JPEG_SCANS) throw new InputError(field, TOO_MANY_SCANS);
  return { bytes, mime, width: size.width, height: size.height };
}

function tooLarge(field: string, rules: ImageRules) {
  return new InputError(field, rules.tooLargeMessage ?? INPUT_MESSAGES.imageTooLarge(rules.maxBytes), 413);
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PNG_IEND = Buffer.from([0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]);

export function sniffFormat(bytes: Buffer): ImageMime | null {
  if (bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 30 && bytes.toString('ascii', 0, 4) === 'RIFF' && bytes.toString('ascii', 8, 12) === 'WEBP') {
    return 'image/webp';
  }
  return null;
}

/**
 * Whether an upload can hold transparent pixels, from its header (a PNG with an alpha channel or a
 * tRNS chunk, a WebP with its alpha flag): what a JPEG result could not keep.
 */
export function mayHaveAlpha(bytes: Buffer, mime: ImageMime): boolean {
  if (mime === 'image/png') return bytes[25] === 4 || bytes[25] === 6 || bytes.includes('tRNS', 33, 'latin1');
  if (mime === 'image/webp') {
    const chunk = bytes.toString('ascii', 12, 16);
    if (chunk === 'VP8X') return ((bytes[20] ?? 0) & 0x10) !== 0;
    if (chunk === 'VP8L') return ((bytes.readUInt32LE(21) >> 28) & 1) === 1;
  }
  return false;
}

export function readDimensions(bytes: Buffer, mime: ImageMime): { width: number; height: number } | null {
  if (mime === 'image/png') {
    if (bytes.toString('ascii', 12, 16) !== 'IHDR') return null;
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  }
  if (mime === 'image/webp') {
    const chunk = bytes.toString('ascii', 12, 16);
    if (chunk === 'VP8 ' && bytes.length >= 30) {
      return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
    }
    if (chunk === 'VP8L' && bytes.length >= 25) {
      const bits = bytes.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    if (chunk === 'VP8X' && bytes.length >= 30) {
      return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
    }
    return null;
  }
  // JPEG: walk the markers to the first start-of-frame (SOF0-SOF15 but DHT, JPG and DAC).
  let offset = 2;
  while (offset + 9 < bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] as number;
    if (marker === 0xff) {
      offset++;
      continue;
    }
    const length = bytes.readUInt16BE(offset + 2);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: bytes.readUInt16BE(offset + 5), width: bytes.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return null;
}

/** Whether the file ends as its format says it must: a cut-off upload is refused here. */
function isComplete(bytes: Buffer, mime: ImageMime): boolean {
  if (mime === 'image/png') return bytes.subarray(bytes.length - 8).equals(PNG_IEND);
  if (mime === 'image/jpeg') {
    // The end-of-image marker, allowing for padding some encoders add after it.
    const tail = bytes.subarray(Math.max(0, bytes.length - 1024));
    return tail.includes(Buffer.from([0xff, 0xd9]));
  }
  const declared = bytes.readUInt32LE(4) + 8;
  return bytes.length >= declared && bytes.length <= declared + 1;
}
