// The files a tool hands back (issue 41, decision 063): the formats a result can come in, the
// cut-out's finishing options, and the shop presets the Background Remover page offers. The request
// schemas (tool-requests.ts), the server's finishing (server/images/finishing/) and the pages read
// these, so the three cannot drift apart.
import { OUTPUT_FORMATS, type OutputFormat } from './output-formats';
import { type ImageResultToolId, TOOLS } from './tools';

export { type ImageResultToolId, OUTPUT_FORMATS, type OutputFormat };

export const OUTPUT_FORMAT_LABELS: Record<OutputFormat, string> = {
  png: 'PNG',
  jpeg: 'JPEG',
  webp: 'WebP',
  avif: 'AVIF',
};
export const OUTPUT_FORMAT_EXTENSIONS: Record<OutputFormat, string> = {
  png: 'png',
  jpeg: 'jpg',
  webp: 'webp',
  avif: 'avif',
};
export const OUTPUT_FORMAT_TYPES = {
  png: 'image/png',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
} as const satisfies Record<OutputFormat, string>;

/** The format of a stored image's content type (null: not one of ours). */
export const formatOfType = (contentType: string): OutputFormat | null =>
  (Object.entries(OUTPUT_FORMAT_TYPES).find(([, type]) => type === contentType)?.[0] as OutputFormat) ?? null;

/** The file extension of an image type we store (png, jpg, webp, avif); `bin` for another. */
export function extensionOfType(contentType: string): string {
  const format = formatOfType(contentType);
  return format ? OUTPUT_FORMAT_EXTENSIONS[format] : 'bin';
}

/** Formats that keep transparency; JPEG does not. */
export const keepsTransparency = (format: OutputFormat): boolean => format !== 'jpeg';

/** The spec's format per tool: what a result comes in when no `outputFormat` is asked for (its definition's `resultFiles`). */
export const DEFAULT_OUTPUT_FORMAT = Object.fromEntries(
  TOOLS.flatMap((tool) => (tool.resultFiles ? [[tool.id, tool.resultFiles.format]] : [])),
) as Record<ImageResultToolId, OutputFormat>;

/** `outputQuality` (1-100) for the lossy formats when none is asked for; PNG is lossless. */
export const DEFAULT_OUTPUT_QUALITY: Record<Exclude<OutputFormat, 'png'>, number> = { jpeg: 90, webp: 90, avif: 60 };

/** A colour as `#rrggbb`. */
export const HEX_COLOUR = /^#[0-9a-fA-F]{6}$/;

/** The cut-out's square size, in pixels (a shop listing's 2000 px sits inside). */
export const CUT_OUT_SIZE = { min: 64, max: 4096 } as const;
/** The margin around the subject when cropping, in percent of the subject's longer side. */
export const CUT_OUT_MARGIN = { min: 0, max: 50, whenSized: 5 } as const;

/** What the Background Remover hands back: the cut-out (the default), the photo with its background blurred, or the matte. */
export const CUT_OUT_MODES = ['cutout', 'blur', 'mask'] as const;
export type CutOutMode = (typeof CUT_OUT_MODES)[number];
/** `blurStrength` (1-100) of mode blur; 50 when none is asked for. */
export const BLUR_STRENGTH = { min: 1, max: 100, default: 50 } as const;
/**
 * A mode's result when it is not a cut-out: a blur is an opaque photo, WebP unless asked (as the
 * other photo tools' results); a mask is a one-channel PNG and nothing else.
 */
export const MODE_RESULT: Partial<Record<CutOutMode, { format: OutputFormat; only?: true }>> = {
  blur: { format: 'webp' },
  mask: { format: 'png', only: true },
};

/**
 * Background Remover's finishing, as the request names it: `background` "transparent" (the default)
 * or a colour; `crop` the margin around the subject in percent (absent: the whole picture); `size` a
 * square of that many pixels with the subject centred; `shadow` a soft contact shadow under it.
 */
export type CutOutFinish = {
  background?: string;
  crop?: number;
  size?: number;
  shadow?: boolean;
  /**
   * Issue 58: "blur" (the photo, its background blurred by `blurStrength` 1-100) or "mask" (the
   * matte as a grey PNG) instead of the cut-out; `cleanEdges` the soft edge's colours cleaned of the
   * old background's (decision 080). The request's default for both is kept with the job.
   */
  mode?: CutOutMode;
  blurStrength?: number;
  cleanEdges?: boolean;
};

/**
 * The presets the Background Remover page offers for the common shop formats. A label is short
 * enough to show whole in the narrowest "Finish" menu (a batch's side panel at 1280 px, a phone):
 * the hint under the menu says the rest of the chosen one.
 */
export const CUT_OUT_PRESETS: readonly { id: string; label: string; hint: string; finish: CutOutFinish }[] = [
  {
    id: 'plain',
    label: 'Transparent, as it is',
    hint: 'The subject on a transparent background, the picture’s size kept.',
    finish: {},
  },
  {
    id: 'transparent-cropped',
    label: 'Transparent, cropped',
    hint: 'The subject on a transparent background, cropped close around it.',
    finish: { crop: 2 },
  },
  {
    id: 'shop-square-white',
    label: 'White square, 2000 px',
    hint: 'A white 2000 × 2000 px square with the subject centred, as shops ask for.',
    finish: { background: '#ffffff', size: 2000 },
  },
  {
    id: 'shop-square-shadow',
    label: 'White square with shadow',
    hint: 'The white 2000 × 2000 px square, with a soft shadow under the subject.',
    finish: { background: '#ffffff', size: 2000, shadow: true },
  },
];

/** The spec's download name with the extension of the format it was made in. */
export function withFormatExtension(name: string, format: OutputFormat): string {
  const stem = name.replace(/\.[a-z0-9]+$/i, '');
  return `${stem}.${OUTPUT_FORMAT_EXTENSIONS[format]}`;
}

/** The sentences a refusal of these options shows (a page's user can cause them). */
export const OUTPUT_MESSAGES = {
  jpegNeedsBackground: 'JPEG cannot keep a transparent background. Choose a background colour, or PNG, WebP or AVIF.',
  jpegTransparentUpload: 'This image has transparent parts, which JPEG cannot keep. Choose PNG, WebP or AVIF.',
  qualityNotForPng: 'PNG is lossless, so it takes no quality. Leave outputQuality out or choose JPEG, WebP or AVIF.',
} as const;
