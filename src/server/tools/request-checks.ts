// The pieces every tool's request check is made of: the contract's request schema with our error
// message, and the image rules (bytes, pixels, shape) of the tools that take an image.

import type { z } from 'zod';
import {
  type CutOutFinish,
  DEFAULT_OUTPUT_FORMAT,
  type ImageResultToolId,
  keepsTransparency,
  OUTPUT_MESSAGES,
  type OutputFormat,
} from '../../contract/output-files';
import { describeIssue } from '../../contract/tool-requests';
import {
  IMAGE_SHAPE_LIMITS,
  type ImageToolId,
  toolById,
  UPLOAD_LIMIT_5MB,
  UPLOAD_TOO_LARGE_5MB,
  UPSCALE_MAX_INPUT,
  upscaleMaxSide,
} from '../../contract/tools';
import {
  DEFAULT_IMAGE_MAX_BYTES,
  DEFAULT_MAX_PIXELS,
  decodeImageField,
  type ImageRules,
  InputError,
  mayHaveAlpha,
} from '../images/image-input';
import type { ImageInput } from '../images/image-types';

/** The request body parsed with the tool's schema (its `request`); the first problem as InputError("field: reason"). */
export function parseRequest<S extends z.ZodObject>(request: S, body: unknown): z.output<S> {
  const result = request.safeParse(body ?? {});
  if (!result.success) {
    const { field, reason } = describeIssue(result.error, body);
    throw new InputError(field, reason);
  }
  return result.data;
}

/** The images of the tools without the spec's 5 MB limit (each tool takes base64 or a data URL alike). */
export const IMAGE: ImageRules = {
  maxBytes: DEFAULT_IMAGE_MAX_BYTES,
  maxPixels: DEFAULT_MAX_PIXELS,
};
/** Metamorphose and Background Swap: the spec's 5 MB limit and its message. */
export const UPLOAD_5MB: ImageRules = {
  maxBytes: UPLOAD_LIMIT_5MB,
  maxPixels: DEFAULT_MAX_PIXELS,
  tooLargeMessage: UPLOAD_TOO_LARGE_5MB,
};

/** The output of an upscale must stay within ~16 megapixels, so the input limit depends on the scale. */
export function upscaleInputRules(rules: ImageRules, scale: keyof typeof UPSCALE_MAX_INPUT): ImageRules {
  const limit = UPSCALE_MAX_INPUT[scale];
  return {
    ...rules,
    maxPixels: limit.pixels,
    pixelLimitLabel: `${limit.label} for ${scale}x`,
    maxSide: upscaleMaxSide(scale),
  };
}

/** `rules` with the shapes the tool's models can take (contract IMAGE_SHAPE_LIMITS, decision 015). */
export const withShapeLimits = (tool: ImageToolId, rules: ImageRules): ImageRules => ({
  ...IMAGE_SHAPE_LIMITS[tool],
  ...rules,
});

/**
 * The call of a tool whose request (its schema `request`) is one image in `image`: its input is that
 * image, the fixed `extra` fields and, for a tool whose result is an image, the request's file fields
 * (resultFileFields).
 */
export function prepareOneImage<T extends ImageToolId, E extends object>(
  tool: T,
  request: z.ZodObject,
  body: unknown,
  rules: ImageRules,
  extra: E,
): { input: { tool: T; image: ImageInput } & E & ResultFileFields; units: number; images: ImageInput[] } {
  const parsed = parseRequest(request, body) as { image: unknown } & ResultFileFields;
  const image = decodeImageField('image', parsed.image, withShapeLimits(tool, rules));
  const file = toolById(tool).resultFiles ? resultFileFields(tool as ImageResultToolId, parsed, image) : {};
  return { input: { tool, image, ...extra, ...file }, units: 1, images: [image] };
}

/** The request's file fields as a tool's input keeps them (contract/output-files.ts), absent ones left out. */
export type ResultFileFields = {
  outputFormat?: OutputFormat;
  outputQuality?: number;
  keepLocation?: boolean;
} & CutOutFinish;

/**
 * The file fields of a parsed request, checked together: quality only for a lossy format, and no
 * JPEG for a result that will be transparent (its definition's `resultFiles.transparency`: a cut-out
 * without a background colour, or an upload with transparency that the tool keeps). Each refusal
 * is a sentence the page's user can read.
 */
export function resultFileFields(
  tool: ImageResultToolId,
  body: ResultFileFields,
  upload?: ImageInput,
  /** What this call's result is, when not its definition's (Background Remover's mode blur: an opaque photo). */
  transparency = toolById(tool).resultFiles?.transparency,
): ResultFileFields {
  const fields: ResultFileFields = {
    outputFormat: body.outputFormat,
    outputQuality: body.outputQuality,
    keepLocation: body.keepLocation,
    // "transparent" is what no background means: kept as absent.
    background: body.background === 'transparent' ? undefined : body.background,
    crop: body.crop,
    size: body.size,
    shadow: body.shadow,
  };
  const format = fields.outputFormat ?? DEFAULT_OUTPUT_FORMAT[tool];
  if (format === 'png' && fields.outputQuality !== undefined) {
    throw new InputError('outputQuality', OUTPUT_MESSAGES.qualityNotForPng);
  }
  if (!keepsTransparency(format)) {
    if (transparency === 'cut-out' && fields.background === undefined) {
      throw new InputError('outputFormat', OUTPUT_MESSAGES.jpegNeedsBackground);
    }
    if (upload && transparency === 'upload' && mayHaveAlpha(upload.bytes, upload.mime)) {
      throw new InputError('outputFormat', OUTPUT_MESSAGES.jpegTransparentUpload);
    }
  }
  const kept = Object.entries(fields).filter(([, value]) => value !== undefined);
  return Object.fromEntries(kept) as ResultFileFields;
}
