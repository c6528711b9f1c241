// The limits on what a user sends (prompts, image files, image sizes) and the sentences that refuse
// it: ONE place for the server, which checks every call before charging (the authority), and the
// pages, which state the limits beside their fields and check them before anything is sent (issue
// 38). No zod here: pages load this module.
import { isStorableText } from './text';
import {
  IMAGE_SHAPE_LIMITS,
  type ImageToolId,
  SCALED_INPUT_TOOLS,
  UPLOAD_LIMIT_5MB,
  UPLOAD_TOO_LARGE_5MB,
} from './tools';

const MB = 1024 * 1024;

/** Prompts: required, and at most this many characters once trimmed (a 100 kB prompt is refused). */
export const MAX_PROMPT_CHARS = 2000;

/** The largest image file of the tools without the spec's 5 MB limit. */
export const IMAGE_MAX_BYTES = 10 * MB;
/** The most pixels an image may have: 40 megapixels (e.g. 8000 x 5000). */
export const IMAGE_MAX_PIXELS = 40_000_000;
export const IMAGE_MAX_PIXELS_LABEL = '40 megapixels';

/** A tool call's whole body: an image at its limit as base64 (4/3 of its bytes) and the other fields fit. */
export const TOOL_BODY_MAX_BYTES = 15 * MB;

/** 2143 -> "2,143": the counts users read. */
export const formatCount = (value: number) => value.toLocaleString('en-US');

/** A file size as users read it: "812 KB", "42.9 MB", "10 MB". */
export function formatFileSize(bytes: number): string {
  if (bytes < MB) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  const mb = bytes / MB;
  return Number.isInteger(mb) ? `${mb} MB` : `${mb.toFixed(1)} MB`;
}

const dimensions = (width: number, height: number) => `${formatCount(width)} x ${formatCount(height)} px`;

/**
 * What a user reads when a prompt or an image is refused: a sentence about what they sent and what
 * to do. The server answers with these (its `error`), and the pages say the same before sending.
 */
export const INPUT_MESSAGES = {
  promptEmpty: 'Please describe the image you want.',
  promptTooLong: (length: number) =>
    `Your description is ${formatCount(length)} characters; the limit is ${formatCount(MAX_PROMPT_CHARS)}.`,
  /** Announced once as typing goes over the limit (the visible sentence above counts on with each key). */
  promptOverLimit: `Your description is over the ${formatCount(MAX_PROMPT_CHARS)}-character limit.`,
  promptUnstorable:
    'Your description contains a character that cannot be saved (a control character or a broken emoji). Please remove it and try again.',
  /** `bytes`: the file's size when known (the server may refuse before it has counted them all). */
  imageTooLarge: (maxBytes: number, bytes?: number) =>
    bytes === undefined
      ? `This image is larger than ${formatFileSize(maxBytes)}, the limit. Please choose a smaller file.`
      : `This image is ${formatFileSize(bytes)}; the limit is ${formatFileSize(maxBytes)}. Please choose a smaller file.`,
  imageTooManyPixels: (width: number, height: number, limitLabel: string) =>
    `This image is ${dimensions(width, height)}, more than ${limitLabel}. Please choose a smaller image.`,
  imageTooSmall: (width: number, height: number, minSide: number) =>
    `This image is ${dimensions(width, height)}; its shortest side must be at least ${formatCount(minSide)} px. Please choose a larger image.`,
  imageSideTooLong: (width: number, height: number, maxSide: number) =>
    `This image is ${dimensions(width, height)}; its longest side can be at most ${formatCount(maxSide)} px. Please choose a smaller image.`,
  imageTooNarrow: (width: number, height: number, maxAspect: number) =>
    `This image is ${dimensions(width, height)}; its longest side can be at most ${maxAspect} times its shortest. Please crop it and try again.`,
  imageWrongFormat: 'This file is not a PNG, JPG or WEBP image. Please choose another.',
  imageDamaged: 'This image file is damaged and cannot be read. Please save it again or choose another.',
  imageIncomplete: 'This image file is incomplete (cut off). Please save it again or choose another.',
  imageTooManyScans: (maxScans: number) =>
    `This JPEG is saved in more than ${maxScans} progressive passes and cannot be read safely. Please save it again as a standard JPEG or as PNG.`,
  imageTooSlow: 'This image takes too long to read. Please save it again as a standard JPEG or as PNG.',
  storedImageGone: 'The image you chose is no longer stored (it may have been deleted). Please choose it again.',
  /** A body over TOOL_BODY_MAX_BYTES: refused from its headers, before it is read. */
  requestTooLarge: `Your upload is too large to send. Please choose an image of at most ${formatFileSize(IMAGE_MAX_BYTES)}.`,
} as const;

/**
 * Whether a refusal's reason is written for the user (it starts with a capital: these sentences, the
 * spec's "File size must be less than 5MB"): the server answers it alone. Other reasons are a
 * developer's, all lower case ("must be 2, 4 or 6"), and are answered as "field: reason".
 */
export const isSentence = (reason: string) => /^[A-Z]/.test(reason);

/** The file-size limit of `tool`'s image and what refuses a larger one (the spec's own for the 5 MB tools). */
const hasSpecLimit = (tool: ImageToolId) => IMAGE_SHAPE_LIMITS[tool].spec5MB === true;

export function imageByteLimit(tool: ImageToolId): { maxBytes: number; message: (bytes?: number) => string } {
  if (hasSpecLimit(tool)) {
    return { maxBytes: UPLOAD_LIMIT_5MB, message: () => UPLOAD_TOO_LARGE_5MB };
  }
  return { maxBytes: IMAGE_MAX_BYTES, message: (bytes) => INPUT_MESSAGES.imageTooLarge(IMAGE_MAX_BYTES, bytes) };
}

/**
 * Why an image of `width` x `height` cannot go to `tool`, or null: the limits every tool's upload
 * has (40 megapixels, the shape its models take, a side webp can encode), in the server's order.
 * The tighter per-scale limits of SCALED_INPUT_TOOLS are their pages' own check (upscale-limits.ts).
 */
export function imageSizeProblem(tool: ImageToolId, width: number, height: number): string | null {
  const { minSide, maxAspect, maxSide } = IMAGE_SHAPE_LIMITS[tool];
  const shortest = Math.min(width, height);
  const longest = Math.max(width, height);
  if (width * height > IMAGE_MAX_PIXELS)
    return INPUT_MESSAGES.imageTooManyPixels(width, height, IMAGE_MAX_PIXELS_LABEL);
  if (shortest < minSide) return INPUT_MESSAGES.imageTooSmall(width, height, minSide);
  if (maxSide !== undefined && longest > maxSide) return INPUT_MESSAGES.imageSideTooLong(width, height, maxSide);
  if (longest > shortest * maxAspect) return INPUT_MESSAGES.imageTooNarrow(width, height, maxAspect);
  return null;
}

/**
 * The limits of `tool`'s image in words, for the line under its drop zone's hint: what that hint
 * does not already say (the spec's 5 MB hint; the upscalers' largest input per scale).
 */
export function imageLimitsHint(tool: ImageToolId): string {
  const { maxAspect } = IMAGE_SHAPE_LIMITS[tool];
  const limits = [
    hasSpecLimit(tool) ? null : formatFileSize(imageByteLimit(tool).maxBytes),
    SCALED_INPUT_TOOLS.includes(tool) ? null : IMAGE_MAX_PIXELS_LABEL,
  ].filter(Boolean);
  return `Up to ${limits.join(' and ')}; the longest side at most ${maxAspect} times the shortest.`;
}

/** Why a prompt cannot go out as it is, or null (the server's rules: trimmed, required, bounded, storable). */
export function promptProblem(prompt: string): string | null {
  const trimmed = prompt.trim();
  if (trimmed.length === 0) return INPUT_MESSAGES.promptEmpty;
  if (trimmed.length > MAX_PROMPT_CHARS) return INPUT_MESSAGES.promptTooLong(trimmed.length);
  if (!isStorableText(trimmed)) return INPUT_MESSAGES.promptUnstorable;
  return null;
}
