// The tools, derived from THE list (tool-list.ts, the spec's menu order): the ids, types and
// per-tool tables below come from each tool's definition (contract/tools/<tool-id>/definition.ts,
// typed by tool-definition.ts), so this file names no tool. Costs and counts are product-spec.md
// section 9; the server charges from these definitions only. Adding a tool: docs/adding-a-tool.md.
// Not on the landing page's path (issue 18's budget, scripts/build-output.test.ts): the modules there
// (the router's routes, the menu, the prices, the tool count) read TOOL_LIST from tool-list.ts.
import { WEBP_MAX_SIDE } from './output-formats';
import type { ToolDefinition as AnyToolDefinition, ImageIntake } from './tool-definition';
import { TOOL_LIST } from './tool-list';

export type { ImageIntake, ImageResult } from './tool-definition';
export { WEBP_MAX_SIDE };

/** One definition of the list, with its own literal types (what the types below are derived from). */
type Tool = (typeof TOOL_LIST)[number];

export type ToolId = Tool['id'];

/** The definition of tool `T`, with its own literal types (whether it takes a batch, say). */
export type DefinitionOf<T extends ToolId> = Extract<Tool, { id: T }>;

/** A tool of the list (tool-definition.ts), its id one of ToolId. */
export type ToolDefinition = AnyToolDefinition<ToolId>;

export const TOOLS: readonly ToolDefinition[] = TOOL_LIST;

/** The ids in the list's order (a non-empty tuple, as z.enum takes). */
export const TOOL_IDS = TOOLS.map((tool) => tool.id) as unknown as readonly [ToolId, ...ToolId[]];

/** Aspect-ratio options (product-spec.md section 3); default 1:1. */
export const ASPECT_RATIOS = ['1:1', '9:16', '16:9'] as const;
export type AspectRatio = (typeof ASPECT_RATIOS)[number];

/** Text to Pic quality and the output quality it maps to (section 3). */
export const QUALITIES = ['low', 'med', 'high'] as const;
export type Quality = (typeof QUALITIES)[number];
export const OUTPUT_QUALITY: Record<Quality, 33 | 66 | 100> = { low: 33, med: 66, high: 100 };

/** Text Lab's Text Assist; default Auto. */
export const TEXT_ASSIST_OPTIONS = ['Auto', 'On', 'Off'] as const;
export type TextAssist = (typeof TEXT_ASSIST_OPTIONS)[number];

/** Metamorphose sizes per aspect ratio (section 7). */
export const METAMORPHOSE_SIZES: Record<AspectRatio, { width: number; height: number }> = {
  '1:1': { width: 1024, height: 1024 },
  '9:16': { width: 768, height: 1344 },
  '16:9': { width: 1344, height: 768 },
};

/**
 * Image Upscaler: the largest input per scale, so that the output stays within 16 megapixels
 * (about 4096 x 4096). Stated in the page's hint and enforced by the server before charging.
 * At these limits the local engine's job takes ~22 s (2x), ~8 s (4x), ~13 s (6x) on 2 cores
 * (bench/local-models/upscale.bench.ts), within a minute even when the cores are shared.
 */
export const UPSCALE_MAX_INPUT: Record<2 | 4 | 6, { pixels: number; label: string }> = {
  2: { pixels: 2048 * 2048, label: '2048 x 2048' },
  4: { pixels: 1024 * 1024, label: '1024 x 1024' },
  6: { pixels: 680 * 680, label: '680 x 680' },
};

/** The longest input side an upscale by `scale` can take (a long, thin image within the pixel limit). */
export const upscaleMaxSide = (scale: number) => Math.floor(WEBP_MAX_SIDE / scale);

/** Whether an input of `width` x `height` is too large to upscale by `scale` (pixels or side). */
export const exceedsUpscaleLimit = (width: number, height: number, scale: 2 | 4 | 6) =>
  width * height > UPSCALE_MAX_INPUT[scale].pixels || Math.max(width, height) > upscaleMaxSide(scale);

/** The tools whose request carries an image (`image` in their definition). */
export type ImageToolId = Extract<Tool, { image: ImageIntake }>['id'];
/** The tools whose result is images (`resultFiles` in their definition): each takes `outputFormat`. */
export type ImageResultToolId = Extract<Tool, { resultFiles: object }>['id'];

/**
 * The image shapes each tool accepts, checked before charging (decision 015): the shortest side
 * at least `minSide` px, the longest at most `maxAspect` times the shortest, and for a tool whose
 * webp result has the upload's size, a longest side webp can encode (each definition's `image`).
 * The models that see the whole image squeezed into a fixed square (DDColor, ISNet, ad-inpaint,
 * the face detectors) get 10:1; the upscalers work in tiles (their longest side is bounded by the
 * scale's limits) and the analyzer only measures, so they get 20:1, the most the explicit-content
 * check, which sees every upload squeezed into 224 x 224, is trusted with.
 */
export const IMAGE_SHAPE_LIMITS = Object.fromEntries(
  TOOLS.flatMap((tool) => (tool.image ? [[tool.id, tool.image]] : [])),
) as Record<ImageToolId, ImageIntake>;

/**
 * The tools whose input limit is an upscale's (UPSCALE_MAX_INPUT at their scales: Fix a Face and the
 * Creative Upscaler double the image) rather than the 40 megapixels of the others.
 */
export const SCALED_INPUT_TOOLS = TOOLS.flatMap((tool) =>
  tool.image?.scales ? [tool.id] : [],
) as readonly ImageToolId[];

/** Metamorphose and Background Swap uploads: at most 5 MB (5242880 bytes), refused with the spec's message. */
export const UPLOAD_LIMIT_5MB = 5 * 1024 * 1024;
export const UPLOAD_TOO_LARGE_5MB = 'File size must be less than 5MB';

/** Image counts per request (section 9). */
export const MAX_IMAGES_PER_REQUEST = 4;

/** The tools of the contract that a side's modules `M` lack: `never` when every tool has one. */
export type ToolsWithoutModule<M extends { id: ToolId }> = Exclude<ToolId, M['id']>;

/** A side's tool modules in the contract's order; throws naming a tool without exactly one module. */
export function inToolOrder<M extends { id: ToolId }>(modules: readonly M[], side: string): M[] {
  return TOOL_IDS.map((id) => {
    const matching = modules.filter((module) => module.id === id);
    if (matching.length !== 1) throw new Error(`${side}: ${matching.length} modules for tool ${id}, expected one`);
    return matching[0] as M;
  });
}

export function toolById(id: ToolId): ToolDefinition {
  const tool = TOOLS.find((t) => t.id === id);
  if (!tool) throw new Error(`unknown tool ${id}`);
  return tool;
}

/** The server's answers when a tool call is refused (product-spec.md sections 5 and 8). */
export const TOOL_MESSAGES = {
  signInRequired: 'Please sign in to use this tool.',
  wrongUser: 'This request is for another account.',
  fraud: 'Account suspended due to fraud warning. Please contact support.',
  dispute: 'Account suspended due to open dispute. Please contact support.',
  unverified: 'Please verify email before use.',
  notEnoughTokens: 'Not enough tokens. Please purchase more.',
  idempotencyMismatch: 'This Idempotency-Key was already used for a different request.',
  tooManyCalls: 'Too many requests in a short time. Please wait a moment and try again.',
  /** A call beyond MAX_ACTIVE_JOBS_PER_USER jobs queued or running (429). */
  tooManyJobs: (limit: number) => `You already have ${limit} jobs in progress. Please wait for one to finish.`,
  /** The job a call waited for was deleted with its account meanwhile (410). */
  jobDeleted: 'This job was deleted with its account.',
} as const;
