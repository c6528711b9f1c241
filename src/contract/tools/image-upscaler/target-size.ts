// Image Upscaler to a size (issue 58 item 4, decisions 081 and 084): a width or a height in pixels, or
// a print size at a DPI, instead of a factor. The arithmetic both sides share: which of the request's
// fields says what, the result's exact size, the model's scale that reaches it (none when the photo
// has the pixels already), the photo made smaller first when it is past that scale's input limit, and
// the refusals, each naming the largest size this image can be made. The server plans before the charge (tools/image-upscaler),
// the finishing makes the exact size from the model's output (images/finishing/result-file.ts), and
// the page shows the same plan before the run. Arithmetic only: no pixel is read.
import { PRINT_DPI, PRINT_SIZES, type PrintSizeId, printPixels } from '../../print-sizes';
import { type ResultSize, resultSizeFor, type Size } from '../../result-size';
import { exceedsUpscaleLimit, UPSCALE_MAX_INPUT, upscaleMaxSide, WEBP_MAX_SIDE } from '../../tools';

export type { ResultSize };

export type UpscaleScale = keyof typeof UPSCALE_MAX_INPUT;
export const UPSCALE_SCALES: readonly UpscaleScale[] = [2, 4, 6];

/** What a call asks: a factor (today's), one side in pixels, or a print size at a DPI. */
export type UpscaleTarget =
  | { kind: 'scale'; scale: UpscaleScale }
  | { kind: 'width'; width: number }
  | { kind: 'height'; height: number }
  | { kind: 'print'; printSize: PrintSizeId; dpi: number };

export type SizedTarget = Exclude<UpscaleTarget, { kind: 'scale' }>;

/** The request's fields that choose the target (each optional in the schema; exactly one is given). */
export type TargetFields = {
  scale?: UpscaleScale;
  targetWidth?: number;
  targetHeight?: number;
  printSize?: PrintSizeId;
  dpi?: number;
};

const CHOICES = ['scale', 'targetWidth', 'targetHeight', 'printSize'] as const;

export const TARGET_MESSAGES = {
  none: 'Choose how to upscale: scale (2, 4 or 6), targetWidth, targetHeight or printSize.',
  several: (given: string[]) =>
    `Choose one of scale, targetWidth, targetHeight and printSize, not ${given.join(' and ')} together.`,
  dpiWithoutPrint: 'The dpi goes with a printSize: choose a printSize, or leave dpi out.',
} as const;

/** The target the fields ask for, or the refusal (its field and sentence): one choice, dpi only with a print size. */
export function upscaleTargetOf(fields: TargetFields): { target: UpscaleTarget } | { field: string; message: string } {
  const given = CHOICES.filter((name) => fields[name] !== undefined);
  if (given.length === 0) return { field: 'scale', message: TARGET_MESSAGES.none };
  if (given.length > 1) return { field: given[1] as string, message: TARGET_MESSAGES.several([...given]) };
  if (fields.dpi !== undefined && fields.printSize === undefined) {
    return { field: 'dpi', message: TARGET_MESSAGES.dpiWithoutPrint };
  }
  if (fields.scale !== undefined) return { target: { kind: 'scale', scale: fields.scale } };
  if (fields.targetWidth !== undefined) return { target: { kind: 'width', width: fields.targetWidth } };
  if (fields.targetHeight !== undefined) return { target: { kind: 'height', height: fields.targetHeight } };
  return {
    target: { kind: 'print', printSize: fields.printSize as PrintSizeId, dpi: fields.dpi ?? PRINT_DPI.default },
  };
}

/**
 * The most an upscale makes: 16.8 megapixels (4096 x 4096, what each scale's largest input in
 * UPSCALE_MAX_INPUT is made for), no side longer than webp encodes.
 */
export const MAX_RESULT = { pixels: 4096 * 4096, label: '16.8 megapixels', side: WEBP_MAX_SIDE } as const;

/** The target as the finishing takes it. */
export function resultSizeOf(target: SizedTarget): ResultSize {
  if (target.kind === 'width') return { width: target.width };
  if (target.kind === 'height') return { height: target.height };
  return printPixels(target.printSize, target.dpi);
}

/** What an upscale to `target` does: the model's scale, the result's size, and what a print size crops. */
export type UpscalePlan = {
  /** The model's scale; null: the photo has the pixels already, so no model runs and it is only resized. */
  scale: UpscaleScale | null;
  /**
   * The photo made smaller (Lanczos) before the model, when it is past the scale's input limit: `size`,
   * and `resize`, the same as the job's worker resolves it against the upright photo. Null: as it is.
   */
  modelInput: { size: Size; resize: ResultSize } | null;
  resultSize: ResultSize;
  result: Size;
  /** How much the photo is enlarged in all (the model's scale, then Lanczos to this; at most 1: resized only). */
  factor: number;
  /** A print size's: where its cover crops the photo (null: nothing to crop). */
  cropped: 'top and bottom' | 'sides' | null;
};

/**
 * A refusal's sentence and its reason: `too-small`, it needs more than the largest scale; `too-large`,
 * the result is past what an upscale makes.
 */
export type PlanOutcome =
  | { ok: true; plan: UpscalePlan }
  | { ok: false; message: string; reason: 'too-small' | 'too-large' };

const dims = ({ width, height }: Size) => `${width} x ${height} px`;

/** Megapixels to one decimal, or two where one would read as the limit itself ("16.8"). */
function megapixels(pixels: number): string {
  const oneDecimal = (pixels / 1e6).toFixed(1);
  return oneDecimal === (MAX_RESULT.pixels / 1e6).toFixed(1) ? (pixels / 1e6).toFixed(2) : oneDecimal;
}

/** The target in words: "a width of 2000 px", "A4 at 300 DPI (2480 x 3508 px)". */
function asked(target: SizedTarget, result: Size): string {
  if (target.kind === 'width') return `a width of ${target.width} px`;
  if (target.kind === 'height') return `a height of ${target.height} px`;
  return `${PRINT_SIZES[target.printSize].label} at ${target.dpi} DPI (${dims(result)})`;
}

/** The enlargement that fills the result: a print's cover (the larger of the two sides' factors). */
function factorFor(image: Size, result: Size): number {
  return Math.max(result.width / image.width, result.height / image.height);
}

/**
 * Why `target` is more than an upscale of `image` makes (null: it is within), and the model's scale
 * that reaches it (null: none, the photo has the pixels). The scale's input limit refuses nothing here:
 * a photo past it is made smaller first (modelInputFor).
 */
function firstProblem(
  image: Size,
  target: SizedTarget,
  scales: readonly UpscaleScale[],
): { tooBig: string | null; scale?: UpscaleScale | null; result: Size; factor: number } {
  const result = resultSizeFor(image, resultSizeOf(target));
  const factor = factorFor(image, result);
  const intro = `This image is ${dims(image)}: ${asked(target, result)}`;
  const largestScale = scales[scales.length - 1] as UpscaleScale;
  // A hair over a scale (rounding of the other side) still counts as that scale.
  const scale = factor <= 1 ? null : scales.find((s) => s >= factor - 1e-9);
  if (scale === undefined) {
    const tooBig = `${intro} needs ${factor.toFixed(1)}x, more than the ${largestScale}x the upscaler makes.`;
    return { tooBig, result, factor };
  }
  if (result.width * result.height > MAX_RESULT.pixels) {
    const tooBig = `${intro} is ${megapixels(result.width * result.height)} megapixels, more than the ${MAX_RESULT.label} the upscaler makes.`;
    return { tooBig, result, factor };
  }
  if (Math.max(result.width, result.height) > MAX_RESULT.side) {
    const tooBig = `${intro} is ${dims(result)}, a side longer than the ${MAX_RESULT.side} px the upscaler makes.`;
    return { tooBig, result, factor };
  }
  return { tooBig: null, scale, result, factor };
}

/**
 * The photo made smaller for the model when it is past `scale`'s input limit (decision 084): to what
 * `scale` turns into just the result (its sides divided by the scale, rounded up; the overflow of a
 * print cropped there already), brought within the limit should the rounding pass it (the finishing
 * then enlarges the last pixel or two). Null: the photo is within the limit and goes as it is.
 */
function modelInputFor(image: Size, result: Size, scale: UpscaleScale): UpscalePlan['modelInput'] {
  if (!exceedsUpscaleLimit(image.width, image.height, scale)) return null;
  let width = Math.ceil(result.width / scale);
  let height = Math.ceil(result.height / scale);
  if (exceedsUpscaleLimit(width, height, scale)) {
    const within = Math.min(
      Math.sqrt(UPSCALE_MAX_INPUT[scale].pixels / (width * height)),
      upscaleMaxSide(scale) / Math.max(width, height),
    );
    width = Math.max(1, Math.floor(width * within));
    height = Math.max(1, Math.floor(height * within));
    // A square root a hair over its true value must not leave it a pixel past the limit.
    while (exceedsUpscaleLimit(width, height, scale)) [width, height] = [width - 1, height - 1];
  }
  return {
    size: { width, height },
    resize: { long: Math.max(width, height), short: Math.min(width, height) },
  };
}

/** The largest value in [low, high] for which `fits` holds, `fits` holding below some bound (null: none does). */
function largestFitting(low: number, high: number, fits: (value: number) => boolean): number | null {
  if (high < low || !fits(low)) return null;
  let [lo, hi] = [low, high];
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The sentence naming the most this image can be made of the same kind of target. */
function largestPossible(image: Size, target: SizedTarget, scales: readonly UpscaleScale[]): string {
  const fits = (t: SizedTarget) => firstProblem(image, t, scales).tooBig === null;
  if (target.kind === 'print') {
    const dpi = largestFitting(1, target.dpi, (d) => fits({ ...target, dpi: d }));
    const label = PRINT_SIZES[target.printSize].label;
    if (dpi === null || dpi < PRINT_DPI.min) return `It cannot make ${label} at ${PRINT_DPI.min} DPI or more.`;
    return `The most it makes of ${label} is ${dpi} DPI.`;
  }
  if (target.kind === 'width') {
    const width = largestFitting(1, target.width, (w) => fits({ kind: 'width', width: w }));
    return width !== null ? `The widest it can be made is ${width} px.` : 'It cannot be made that wide.';
  }
  const height = largestFitting(1, target.height, (h) => fits({ kind: 'height', height: h }));
  return height !== null ? `The tallest it can be made is ${height} px.` : 'It cannot be made that tall.';
}

/**
 * The upscale of an image of `image`'s size to `target` with the model's `scales`: the smallest
 * scale that reaches the size (the photo made smaller first if it is past that scale's input limit,
 * then Lanczos to the size exactly), no model at all when the photo has the pixels already (only
 * Lanczos), or a refusal saying why and the most it can be made.
 */
export function planUpscale(
  image: Size,
  target: SizedTarget,
  scales: readonly UpscaleScale[] = UPSCALE_SCALES,
): PlanOutcome {
  const { tooBig, scale, result, factor } = firstProblem(image, target, scales);
  if (tooBig !== null || scale === undefined) {
    const reason = factor > (scales[scales.length - 1] ?? 0) ? 'too-small' : 'too-large';
    return { ok: false, message: `${tooBig} ${largestPossible(image, target, scales)}`, reason };
  }
  const resultSize = resultSizeOf(target);
  const coverWidth = image.width * factor;
  const cropped =
    target.kind !== 'print'
      ? null
      : coverWidth > result.width + 0.5
        ? 'sides'
        : image.height * factor > result.height + 0.5
          ? 'top and bottom'
          : null;
  const modelInput = scale === null ? null : modelInputFor(image, result, scale);
  return { ok: true, plan: { scale, modelInput, resultSize, result, factor, cropped } };
}
