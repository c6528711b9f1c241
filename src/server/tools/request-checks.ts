// The pieces every tool's request check is made of: the contract's request schema with our error
// message, and the image rules (form, bytes, pixels, shape) of the tools that take an image.
import { describeIssue, TOOL_REQUEST_SCHEMAS } from '../../contract/tool-requests';
import {
  IMAGE_SHAPE_LIMITS,
  type ImageToolId,
  type ToolId,
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
} from '../images/image-input';
import type { ImageInput } from '../images/image-types';

/** The request body parsed with the tool's schema; the first problem as InputError("field: reason"). */
export function parseRequest<T extends ToolId>(tool: T, body: unknown) {
  const result = TOOL_REQUEST_SCHEMAS[tool].safeParse(body ?? {});
  if (!result.success) {
    const { field, reason } = describeIssue(result.error, body);
    throw new InputError(field, reason);
  }
  return result.data as (typeof TOOL_REQUEST_SCHEMAS)[T]['_zod']['output'];
}

/** Images that must come as a data URL (Colorizer, Image Upscaler: the spec's clients send one). */
export const DATA_URL_IMAGE: ImageRules = {
  form: 'data-url',
  maxBytes: DEFAULT_IMAGE_MAX_BYTES,
  maxPixels: DEFAULT_MAX_PIXELS,
};
/** Images as a data URL or bare base64. */
export const ANY_FORM_IMAGE: ImageRules = { ...DATA_URL_IMAGE, form: 'base64' };
/** Metamorphose and Background Swap: the spec's 5 MB limit and its message. */
export const UPLOAD_5MB: ImageRules = {
  form: 'base64',
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
 * The call of a tool whose request is one image in `image` (Colorizer, Background Remover, Creative
 * Upscaler, Fix a Face, Image Analyzer): its input is that image and the fixed `extra` fields.
 */
export function prepareOneImage<T extends ImageToolId, E extends object>(
  tool: T,
  body: unknown,
  rules: ImageRules,
  extra: E,
): { input: { tool: T; image: ImageInput } & E; units: number; images: ImageInput[] } {
  const { image: field } = parseRequest(tool, body) as { image: unknown };
  const image = decodeImageField('image', field, withShapeLimits(tool, rules));
  return { input: { tool, image, ...extra }, units: 1, images: [image] };
}
