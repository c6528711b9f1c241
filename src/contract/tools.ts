// The ten tools: THE one list shared by server and web (routes, API paths, costs, labels, icons).
// The router, the menu, the API routes and both sides' registries are built from it, in its order
// (the spec's menu order). Costs and counts are product-spec.md section 9; the server charges from
// this table only. Adding a tool: docs/adding-a-tool.md.
import type { IconName } from './icons';

export const TOOL_IDS = [
  'text-to-pic',
  'metamorphose',
  'colorizer',
  'background-remover',
  'creative-upscaler',
  'fix-a-face',
  'text-lab',
  'background-swap',
  'image-upscaler',
  'image-analyzer',
] as const;

export type ToolId = (typeof TOOL_IDS)[number];

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

/** webp, the outputs' format, cannot encode a side longer than this. */
export const WEBP_MAX_SIDE = 16383;

/** The longest input side an upscale by `scale` can take (a long, thin image within the pixel limit). */
export const upscaleMaxSide = (scale: number) => Math.floor(WEBP_MAX_SIDE / scale);

/** Whether an input of `width` x `height` is too large to upscale by `scale` (pixels or side). */
export const exceedsUpscaleLimit = (width: number, height: number, scale: 2 | 4 | 6) =>
  width * height > UPSCALE_MAX_INPUT[scale].pixels || Math.max(width, height) > upscaleMaxSide(scale);

/** The tools whose request carries an image. */
export type ImageToolId = Exclude<ToolId, 'text-to-pic' | 'text-lab'>;

/**
 * The tools whose input limit is an upscale's (UPSCALE_MAX_INPUT at their scale; Fix a Face and the
 * Creative Upscaler double the image) rather than the 40 megapixels of the others.
 */
export const SCALED_INPUT_TOOLS: readonly ImageToolId[] = ['creative-upscaler', 'fix-a-face', 'image-upscaler'];

/**
 * The image shapes each tool accepts, checked before charging (decision 015): the shortest side
 * at least `minSide` px, the longest at most `maxAspect` times the shortest, and for the Colorizer,
 * whose webp output has the upload's size, a longest side webp can encode. The models that see the
 * whole image squeezed into a fixed square (DDColor, ISNet, ad-inpaint, the face detectors) get
 * 10:1; the upscalers work in tiles (their longest side is bounded by the scale's limits) and the
 * analyzer only measures, so they get 20:1, the most the explicit-content check, which sees every
 * upload squeezed into 224 x 224, is trusted with.
 */
export const IMAGE_SHAPE_LIMITS: Record<ImageToolId, { minSide: number; maxAspect: number; maxSide?: number }> = {
  metamorphose: { minSide: 8, maxAspect: 10 },
  colorizer: { minSide: 8, maxAspect: 10, maxSide: WEBP_MAX_SIDE },
  'background-remover': { minSide: 8, maxAspect: 10 },
  'creative-upscaler': { minSide: 8, maxAspect: 20 },
  'fix-a-face': { minSide: 8, maxAspect: 10 },
  'background-swap': { minSide: 8, maxAspect: 10 },
  'image-upscaler': { minSide: 8, maxAspect: 20 },
  'image-analyzer': { minSide: 8, maxAspect: 20 },
};

/** Metamorphose and Background Swap uploads: at most 5 MB (5242880 bytes), refused with the spec's message. */
export const UPLOAD_LIMIT_5MB = 5 * 1024 * 1024;
export const UPLOAD_TOO_LARGE_5MB = 'File size must be less than 5MB';

/** Image counts per request (section 9). */
export const MAX_IMAGES_PER_REQUEST = 4;

export interface ToolDefinition {
  id: ToolId;
  /** Page heading and document title. */
  title: string;
  /** Sidebar label (product-spec.md section 2, "Menu labels"). */
  menuLabel: string;
  /** Client-side route. */
  route: `/${string}`;
  /** Backend call, under /api (product-spec.md section 7). */
  apiPath: `/${string}`;
  /** Tokens per unit. */
  cost: number;
  /** What the cost is multiplied by: each image asked for, or one request. */
  costPer: 'image' | 'request';
  /** One line under the title: what the tool does. */
  summary: string;
  /** The response's result field: `output` as a list of URLs, `output` as one URL, or the analysis. */
  response: 'image-list' | 'image' | 'analysis';
  /** What the user reads when a job of this tool fails (product-spec.md section 8). */
  failureMessage: string;
  /** Its icon in the menu, on the landing page and on its page (lucide's name). */
  icon: IconName;
  /** A headline tool: a wide card on the landing page. */
  featured?: boolean;
}

export const TOOLS: readonly ToolDefinition[] = [
  {
    id: 'text-to-pic',
    title: 'Text to Pic',
    menuLabel: 'Text to Pic',
    route: '/text-to-pic',
    apiPath: '/generate-image',
    cost: 1,
    costPer: 'image',
    summary: 'Describe a picture and get up to four images in seconds.',
    response: 'image-list',
    failureMessage: 'Failed to generate image',
    icon: 'image-plus',
    featured: true,
  },
  {
    id: 'metamorphose',
    title: 'Metamorphose',
    menuLabel: 'Metamorphose',
    route: '/metamorphose',
    apiPath: '/metamorphose-image',
    cost: 9,
    costPer: 'image',
    summary: 'Turn a reference photo of a face into a new scene you describe.',
    response: 'image-list',
    failureMessage: 'Failed to generate images',
    icon: 'scan-face',
    featured: true,
  },
  {
    id: 'colorizer',
    title: 'Colorizer',
    menuLabel: 'Colorizer',
    route: '/colorizer',
    apiPath: '/colorize-image',
    cost: 6,
    costPer: 'request',
    summary: 'Bring black-and-white photos to life with natural colour.',
    response: 'image',
    failureMessage: 'Colorization failed. Please try again.',
    icon: 'paintbrush',
  },
  {
    id: 'background-remover',
    title: 'Background Remover',
    menuLabel: 'Remove Background',
    route: '/background-remover',
    apiPath: '/remove-background',
    cost: 2,
    costPer: 'request',
    summary: 'Cut out the subject and get a transparent PNG.',
    response: 'image',
    failureMessage: 'Background removal failed. Please try again.',
    icon: 'eraser',
  },
  {
    id: 'creative-upscaler',
    title: 'Creative Upscaler',
    menuLabel: 'Creative Upscaler',
    route: '/creative-upscale',
    apiPath: '/creative-upscale',
    cost: 70,
    costPer: 'request',
    summary: 'Upscale 2x while inventing fine detail and texture.',
    response: 'image',
    failureMessage: 'Creative upscale failed. Please use a smaller image size.',
    icon: 'wand-sparkles',
  },
  {
    id: 'fix-a-face',
    title: 'Fix a Face',
    menuLabel: 'Fix a Face',
    route: '/face-fixer',
    apiPath: '/fix-face',
    cost: 2,
    costPer: 'request',
    summary: 'Restore blurry or damaged faces in portraits.',
    response: 'image',
    failureMessage: 'Face fixing failed. Please try again.',
    icon: 'smile',
  },
  {
    id: 'text-lab',
    title: 'Text Lab',
    menuLabel: 'Text Lab',
    route: '/text-lab',
    apiPath: '/text-lab',
    cost: 15,
    costPer: 'request',
    summary: 'Posters, logos and cards with crisp, legible lettering.',
    response: 'image-list',
    failureMessage: 'Failed to generate image',
    icon: 'letter-text',
  },
  {
    id: 'background-swap',
    title: 'Background Swap',
    menuLabel: 'Background Swap',
    route: '/background-swap',
    apiPath: '/background-swap',
    cost: 25,
    costPer: 'image',
    summary: 'Keep the subject, describe a new background around it.',
    response: 'image-list',
    failureMessage: 'Failed to generate images',
    icon: 'replace',
  },
  {
    id: 'image-upscaler',
    title: 'Image Upscaler',
    menuLabel: 'Image Upscaler',
    route: '/image-upscaler',
    apiPath: '/upscale-image',
    cost: 1,
    costPer: 'request',
    summary: 'Enlarge images 2x, 4x or 6x with sharp detail.',
    response: 'image',
    failureMessage: 'Upscale failed. Please try again.',
    icon: 'maximize-2',
  },
  {
    id: 'image-analyzer',
    title: 'Image Analyzer',
    menuLabel: 'Image Analyzer',
    route: '/image-analyzer',
    apiPath: '/analyze-image',
    cost: 1,
    costPer: 'request',
    summary: 'Keywords and the colour palette of any image.',
    response: 'analysis',
    failureMessage: 'Image analysis failed. Please try again.',
    icon: 'scan-search',
  },
];

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
