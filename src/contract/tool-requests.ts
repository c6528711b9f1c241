// Request bodies of the ten tool calls (product-spec.md section 7), as the server validates them.
// Images are strings here; the server decodes and checks their bytes (server/images).
// (zod lives in this module only, so pages that do not validate do not load it.)
import { z } from 'zod';
import { INPUT_MESSAGES, isSentence, MAX_PROMPT_CHARS } from './input-limits';
import { CUT_OUT_MARGIN, CUT_OUT_SIZE, HEX_COLOUR, OUTPUT_FORMATS } from './output-files';
import { isStorableText, unstorableTextError, unstorableTextField } from './text';
import { ASPECT_RATIOS, MAX_IMAGES_PER_REQUEST, OUTPUT_QUALITY, QUALITIES, TEXT_ASSIST_OPTIONS } from './tools';
import { WEBHOOK_URL } from './webhooks';

export { MAX_PROMPT_CHARS };

/** Prompts: required, and bounded (a 100 kB prompt is refused, not sent to a model); the refusals are the user's sentences. */
const prompt = z
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
const image = z.string({ error: IMAGE_FIELD_MESSAGE }).min(1, 'an image is required');
const userId = z
  .string({ error: 'must be text' })
  .optional()
  .describe(
    "The caller's own account id, as the app sends it; any other id is refused (403). Leave it out: the key or session says who calls.",
  );
/** Every call may name a URL that is POSTed the job when it ends (contract/webhooks.ts). */
const webhook = WEBHOOK_URL.optional();
const aspectRatio = z.enum(ASPECT_RATIOS, { error: `must be one of ${ASPECT_RATIOS.join(', ')}` });
const imageCount = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, `must be from 1 to ${MAX_IMAGES_PER_REQUEST}`)
  .max(MAX_IMAGES_PER_REQUEST, `must be from 1 to ${MAX_IMAGES_PER_REQUEST}`);
const literal = <T extends string | number | boolean>(value: T) =>
  z.literal(value, { error: `must be ${JSON.stringify(value)}` });

/** The result's file (contract/output-files.ts): its format, the lossy formats' quality, and whether the photo's GPS position stays. */
const outputFormat = z.enum(OUTPUT_FORMATS, { error: `must be one of ${OUTPUT_FORMATS.join(', ')}` });
const outputQuality = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, 'must be from 1 to 100')
  .max(100, 'must be from 1 to 100');
const keepLocation = z.boolean({ error: 'must be true or false' }).optional();
/** What every tool that returns an image from an upload takes about its file. */
const imageFile = { outputFormat: outputFormat.optional(), outputQuality: outputQuality.optional(), keepLocation };
/** Background Remover's finishing: the background, a crop to the subject, a square size, a contact shadow. */
const cutOutFinish = {
  background: z
    .string({ error: 'must be "transparent" or a colour as #rrggbb' })
    .refine(
      (value) => value === 'transparent' || HEX_COLOUR.test(value),
      'must be "transparent" or a colour as #rrggbb',
    )
    .optional(),
  crop: z
    .number({ error: 'must be a number' })
    .min(CUT_OUT_MARGIN.min, `must be a margin from ${CUT_OUT_MARGIN.min} to ${CUT_OUT_MARGIN.max} percent`)
    .max(CUT_OUT_MARGIN.max, `must be a margin from ${CUT_OUT_MARGIN.min} to ${CUT_OUT_MARGIN.max} percent`)
    .optional(),
  size: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(CUT_OUT_SIZE.min, `must be from ${CUT_OUT_SIZE.min} to ${CUT_OUT_SIZE.max} pixels`)
    .max(CUT_OUT_SIZE.max, `must be from ${CUT_OUT_SIZE.min} to ${CUT_OUT_SIZE.max} pixels`)
    .optional(),
  shadow: z.boolean({ error: 'must be true or false' }).optional(),
};

export const TOOL_REQUEST_SCHEMAS = {
  'text-to-pic': z.object({
    userId,
    prompt,
    aspectRatio: aspectRatio.default('1:1'),
    numOutputs: imageCount.default(1),
    quality: z.enum(QUALITIES, { error: `must be one of ${QUALITIES.join(', ')}` }).default('high'),
    goFast: literal(true).default(true),
    outputFormat: outputFormat.default('webp'),
    outputQuality: z
      .union([literal(33), literal(66), literal(100)], { error: 'must be 33, 66 or 100' })
      .optional()
      .describe(
        `The one \`quality\` sets (${Object.entries(OUTPUT_QUALITY)
          .map(([quality, value]) => `${quality} ${value}`)
          .join(', ')}); another is refused (400). Leave it out to follow \`quality\`.`,
      ),
    webhook,
  }),
  metamorphose: z.object({
    userId,
    prompt,
    main_face_image: image,
    num_outputs: literal(1).default(1),
    output_quality: literal(33).default(33),
    width: z.number({ error: 'must be a number' }).int().default(1024),
    height: z.number({ error: 'must be a number' }).int().default(1024),
    ...imageFile,
    webhook,
  }),
  'image-upscaler': z.object({
    userId,
    image,
    scale: z.union([literal(2), literal(4), literal(6)], { error: 'must be 2, 4 or 6' }),
    ...imageFile,
    webhook,
  }),
  colorizer: z.object({ userId, image, ...imageFile, webhook }),
  'background-remover': z.object({ userId, image, ...imageFile, ...cutOutFinish, webhook }),
  'creative-upscaler': z.object({ userId, image, scale: literal(2).default(2), ...imageFile, webhook }),
  'fix-a-face': z.object({ userId, image, scale: literal(2).default(2), ...imageFile, webhook }),
  'text-lab': z.object({
    userId,
    prompt,
    aspectRatio: aspectRatio.default('1:1'),
    textAssist: z
      .enum(TEXT_ASSIST_OPTIONS, { error: `must be one of ${TEXT_ASSIST_OPTIONS.join(', ')}` })
      .default('Auto'),
    outputFormat: outputFormat.optional(),
    outputQuality: outputQuality.optional(),
    webhook,
  }),
  'background-swap': z.object({ userId, prompt, image, num_outputs: imageCount.default(1), ...imageFile, webhook }),
  'image-analyzer': z.object({ userId, image, webhook }),
} as const;

/**
 * The fields of `tool`'s request that carry an image (those of the shared `image` schema): a
 * multipart call sends each as a file part of the same name (server/jobs/request/tool-call-body.ts;
 * the OpenAPI document's multipart body).
 */
export const imageFieldsOf = (tool: keyof typeof TOOL_REQUEST_SCHEMAS): string[] =>
  Object.entries(TOOL_REQUEST_SCHEMAS[tool].shape)
    .filter(([, schema]) => schema === image)
    .map(([field]) => field);

/**
 * Why a call's text cannot be taken, or null: a field of `tool` (or one the route reads itself, a
 * batch image's `name`) holding a control character or a broken Unicode character (contract/text.ts),
 * which the database fails on (NUL) or a renderer downstream breaks on. Checked as the body is read,
 * before anything is charged or stored. Images are checked as images, and the prompt by its schema,
 * trimmed, with the sentence its page shows.
 */
export function unstorableTextRefusal(
  tool: keyof typeof TOOL_REQUEST_SCHEMAS,
  body: Record<string, unknown>,
  routeFields: readonly string[] = [],
): string | null {
  const skipped = new Set(['prompt', ...imageFieldsOf(tool)]);
  const fields = [...Object.keys(TOOL_REQUEST_SCHEMAS[tool].shape), ...routeFields].filter((f) => !skipped.has(f));
  const field = unstorableTextField(body, fields);
  return field === null ? null : unstorableTextError(field);
}

export type ToolRequest<T extends keyof typeof TOOL_REQUEST_SCHEMAS> = z.input<(typeof TOOL_REQUEST_SCHEMAS)[T]>;

/**
 * The first problem of a failed parse of `body`: its field and reason (the API answers a reason that
 * is a sentence for the user alone, others as "field: reason").
 */
export function describeIssue(error: z.ZodError, body: unknown): { field: string; reason: string } {
  const issue = error.issues[0];
  if (!issue) return { field: 'body', reason: 'invalid request' };
  const field = issue.path.length ? issue.path.join('.') : 'body';
  if (isSentence(issue.message)) return { field, reason: issue.message };
  const given = issue.path.reduce<unknown>(
    (value, key) => (value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined),
    body,
  );
  if (issue.code === 'invalid_type' && given === undefined) return { field, reason: 'is required' };
  return { field, reason: issue.message };
}
