// The fields tool requests are made of (product-spec.md section 7), as the server validates them:
// each tool's request.ts (contract/tools/<tool-id>/) composes its zod schema from these. Images are
// strings here; the server decodes and checks their bytes (server/images).
// (zod lives in these modules only, so pages that do not validate do not load it.)
import { z } from 'zod';
import { INPUT_MESSAGES, MAX_PROMPT_CHARS } from './input-limits';
import { OUTPUT_FORMATS } from './output-formats';
import { isStorableText } from './text';
import { ASPECT_RATIOS, MAX_IMAGES_PER_REQUEST } from './tools';
import { WEBHOOK_URL } from './webhooks';

/** Prompts: required, and bounded (a 100 kB prompt is refused, not sent to a model); the refusals are the user's sentences. */
export const prompt = z
  .string({ error: (issue) => (issue.input === undefined ? INPUT_MESSAGES.promptEmpty : 'must be text') })
  .trim()
  .min(1, INPUT_MESSAGES.promptEmpty)
  .max(MAX_PROMPT_CHARS, { error: (issue) => INPUT_MESSAGES.promptTooLong(String(issue.input).length) })
  .refine(isStorableText, INPUT_MESSAGES.promptUnstorable);
/**
 * Every image field of every tool takes the same forms: the file's bytes in base64, or a data URL
 * carrying them in base64 (its media type is not trusted: the bytes say what the image is), or
 * `/api/files/<id>` of one of the caller's own files (server/jobs/request/stored-images.ts). Anything
 * else is refused with IMAGE_FIELD_MESSAGE (server/images/image-input.ts `imagePayload`).
 */
export const IMAGE_FIELD_MESSAGE =
  'must be an image: its file in base64, a data URL (data:image/png;base64,...) or /api/files/<id> of one of your files';
/** An image field: this very schema, so that imageFieldsOf (tool-requests.ts) finds a request's images. */
export const image = z.string({ error: IMAGE_FIELD_MESSAGE }).min(1, 'an image is required');
export const userId = z
  .string({ error: 'must be text' })
  .optional()
  .describe(
    "The caller's own account id, as the app sends it; any other id is refused (403). Leave it out: the key or session says who calls.",
  );
/** Every call may name a URL that is POSTed the job when it ends (contract/webhooks.ts). */
export const webhook = WEBHOOK_URL.optional();
export const aspectRatio = z.enum(ASPECT_RATIOS, { error: `must be one of ${ASPECT_RATIOS.join(', ')}` });
export const imageCount = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, `must be from 1 to ${MAX_IMAGES_PER_REQUEST}`)
  .max(MAX_IMAGES_PER_REQUEST, `must be from 1 to ${MAX_IMAGES_PER_REQUEST}`);
export const literal = <T extends string | number | boolean>(value: T) =>
  z.literal(value, { error: `must be ${JSON.stringify(value)}` });

/** The result's file (contract/output-files.ts): its format, the lossy formats' quality, and whether the photo's GPS position stays. */
export const outputFormat = z.enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` });
export const outputQuality = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be from 1 to 100')
  .max(100, 'must be from 1 to 100');
const keepLocation = z.boolean({ error: 'must be true or false' }).optional();
/** What every tool that returns an image from an upload takes about its file. */
export const imageFile = {
  outputFormat: outputFormat.optional(),
  outputQuality: outputQuality.optional(),
  keepLocation,
};
