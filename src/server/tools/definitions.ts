// Each tool's request, turned into what a job needs: the provider input (images decoded and
// checked), the number of units it is charged for, and a summary to keep (no image bytes).
import { describeIssue, TOOL_REQUEST_SCHEMAS } from '../../contract/tool-requests';
import {
  type AspectRatio,
  IMAGE_SHAPE_LIMITS,
  type ImageToolId,
  METAMORPHOSE_SIZES,
  OUTPUT_QUALITY,
  type ToolId,
  toolById,
  UPSCALE_MAX_INPUT,
  upscaleMaxSide,
} from '../../contract/tools';
import {
  DEFAULT_IMAGE_MAX_BYTES,
  DEFAULT_MAX_PIXELS,
  decodeImageField,
  type ImageRules,
  InputError,
  UPLOAD_LIMIT_5MB,
} from '../images/image-input';
import type { ImageInput, ToolInput } from '../inference/provider';

export type PreparedTool = {
  input: ToolInput;
  units: number;
  summary: Record<string, unknown>;
  images: ImageInput[];
  /** The request field the images came from, for messages about them (default `image`). */
  imageField?: string;
};

const DATA_URL_IMAGE: ImageRules = {
  form: 'data-url',
  maxBytes: DEFAULT_IMAGE_MAX_BYTES,
  maxPixels: DEFAULT_MAX_PIXELS,
};
const ANY_FORM_IMAGE: ImageRules = { ...DATA_URL_IMAGE, form: 'base64' };
/** Metamorphose and Background Swap: the spec's 5 MB limit and its message. */
const UPLOAD_5MB: ImageRules = {
  form: 'base64',
  maxBytes: UPLOAD_LIMIT_5MB,
  maxPixels: DEFAULT_MAX_PIXELS,
  tooLargeMessage: 'File size must be less than 5MB',
};

/** The output of an upscale must stay within ~16 megapixels, so the input limit depends on the scale. */
function upscaleInputRules(rules: ImageRules, scale: keyof typeof UPSCALE_MAX_INPUT): ImageRules {
  const limit = UPSCALE_MAX_INPUT[scale];
  return {
    ...rules,
    maxPixels: limit.pixels,
    pixelLimitLabel: `${limit.label} for ${scale}x`,
    maxSide: upscaleMaxSide(scale),
  };
}

/** `rules` with the shapes the tool's models can take (contract IMAGE_SHAPE_LIMITS, decision 015). */
const forTool = (tool: ImageToolId, rules: ImageRules): ImageRules => ({ ...IMAGE_SHAPE_LIMITS[tool], ...rules });

function parse<T extends ToolId>(tool: T, body: unknown) {
  const result = TOOL_REQUEST_SCHEMAS[tool].safeParse(body ?? {});
  if (!result.success) {
    const [field = 'body', ...reason] = describeIssue(result.error, body).split(': ');
    throw new InputError(field, reason.join(': '));
  }
  return result.data as (typeof TOOL_REQUEST_SCHEMAS)[T]['_zod']['output'];
}

const describeImage = (image: ImageInput) => ({
  mime: image.mime,
  width: image.width,
  height: image.height,
  bytes: image.bytes.length,
});

function aspectRatioOf(width: number, height: number): AspectRatio {
  const match = Object.entries(METAMORPHOSE_SIZES).find(([, size]) => size.width === width && size.height === height);
  if (!match) {
    const sizes = Object.values(METAMORPHOSE_SIZES).map((s) => `${s.width}x${s.height}`);
    throw new InputError('width', `width and height must be one of ${sizes.join(', ')}`);
  }
  return match[0] as AspectRatio;
}

/** Validates `body` for `tool`; throws InputError (with the field) on the first problem. */
export function prepareTool(tool: ToolId, body: unknown): PreparedTool {
  switch (tool) {
    case 'text-to-pic': {
      const b = parse(tool, body);
      const expected = OUTPUT_QUALITY[b.quality];
      if (b.outputQuality !== undefined && b.outputQuality !== expected) {
        throw new InputError('outputQuality', `must be ${expected} for quality ${b.quality}`);
      }
      const input = {
        tool,
        prompt: b.prompt,
        aspectRatio: b.aspectRatio,
        numOutputs: b.numOutputs,
        quality: b.quality,
        outputQuality: expected,
      } as const;
      const { tool: _t, ...summary } = input;
      return { input, units: b.numOutputs, summary, images: [] };
    }
    case 'metamorphose': {
      const b = parse(tool, body);
      aspectRatioOf(b.width, b.height);
      const image = decodeImageField('main_face_image', b.main_face_image, forTool(tool, UPLOAD_5MB));
      return {
        input: { tool, prompt: b.prompt, image, width: b.width, height: b.height, numOutputs: 1, outputQuality: 33 },
        units: 1,
        summary: { prompt: b.prompt, width: b.width, height: b.height, image: describeImage(image) },
        images: [image],
        imageField: 'main_face_image',
      };
    }
    case 'image-upscaler': {
      const b = parse(tool, body);
      const image = decodeImageField('image', b.image, forTool(tool, upscaleInputRules(DATA_URL_IMAGE, b.scale)));
      return {
        input: { tool, image, scale: b.scale },
        units: 1,
        summary: { scale: b.scale, image: describeImage(image) },
        images: [image],
      };
    }
    case 'colorizer':
    case 'background-remover':
    case 'image-analyzer': {
      const b = parse(tool, body);
      const image = decodeImageField(
        'image',
        b.image,
        forTool(tool, tool === 'colorizer' ? DATA_URL_IMAGE : ANY_FORM_IMAGE),
      );
      return { input: { tool, image }, units: 1, summary: { image: describeImage(image) }, images: [image] };
    }
    case 'creative-upscaler':
    case 'fix-a-face': {
      const b = parse(tool, body);
      // Both return the image at twice its size: the 2x input limit applies before charging.
      const image = decodeImageField('image', b.image, forTool(tool, upscaleInputRules(ANY_FORM_IMAGE, 2)));
      return {
        input: { tool, image, scale: 2 },
        units: 1,
        summary: { scale: 2, image: describeImage(image) },
        images: [image],
      };
    }
    case 'text-lab': {
      const b = parse(tool, body);
      const input = { tool, prompt: b.prompt, aspectRatio: b.aspectRatio, textAssist: b.textAssist } as const;
      return {
        input,
        units: 1,
        summary: { prompt: b.prompt, aspectRatio: b.aspectRatio, textAssist: b.textAssist },
        images: [],
      };
    }
    case 'background-swap': {
      const b = parse(tool, body);
      const image = decodeImageField('image', b.image, forTool(tool, UPLOAD_5MB));
      return {
        input: { tool, prompt: b.prompt, image, numOutputs: b.num_outputs },
        units: b.num_outputs,
        summary: { prompt: b.prompt, numOutputs: b.num_outputs, image: describeImage(image) },
        images: [image],
      };
    }
  }
}

/** Tokens a prepared call costs: the tool's price times its units (images asked for, or one). */
export const costOf = (tool: ToolId, prepared: PreparedTool) => toolById(tool).cost * prepared.units;
