// Image Upscaler: 2x, 4x or 6x (Real-ESRGAN on Replicate; locally Real-ESRGAN's compact x4fast network),
// or to a size: the model at the smallest scale that reaches it, then the finishing makes the size exact
// and writes the DPI (decision 081; contract/tools/image-upscaler/target-size.ts). A photo that has the
// pixels already is only resized, no model run; one past the scale's input limit is made smaller first
// (decision 084: the job's worker reads `withoutModel` and `modelInputSize`, jobs/model-step.ts).
import { DEFAULT_OUTPUT_FORMAT } from '../../../contract/output-files';
import { request } from '../../../contract/tools/image-upscaler/request';
import {
  planUpscale,
  type ResultSize,
  type UpscaleScale,
  upscaleTargetOf,
} from '../../../contract/tools/image-upscaler/target-size';
import { decodeImageField, InputError } from '../../images/image-input';
import type { ImageInput } from '../../images/image-types';
import { resizedUpload } from '../../inference/demo/demo-images';
import {
  IMAGE,
  parseRequest,
  type ResultFileFields,
  resultFileFields,
  upscaleInputRules,
  withShapeLimits,
} from '../request-checks';
import { defineServerTool } from '../server-tool';

/**
 * `scale`: what the model runs at (asked, or chosen for a target; absent with `withoutModel`). A call to
 * a size also keeps what it asked (targetWidth, targetHeight, printSize and dpi: its settings for "Run
 * again"), `resultSize` (what the finishing resizes the model's output to) and, for a print, `dpi`
 * (written into the file); `withoutModel`, the photo has the pixels (no model run, only the finishing's
 * resize), or `modelInputSize`, the photo made smaller before the model (past the scale's input limit).
 */
export type ImageUpscalerInput = {
  tool: 'image-upscaler';
  image: ImageInput;
  scale?: UpscaleScale;
  targetWidth?: number;
  targetHeight?: number;
  printSize?: string;
  dpi?: number;
  resultSize?: ResultSize;
  withoutModel?: true;
  modelInputSize?: ResultSize;
} & ResultFileFields;

/** The scale a provider runs the model at: every job that reaches a provider has one (a resize-only job reaches none). */
function modelScale(input: ImageUpscalerInput): UpscaleScale {
  if (input.scale === undefined) throw new Error('an Image Upscaler job without a scale was given to a model');
  return input.scale;
}

export const imageUpscaler = defineServerTool<ImageUpscalerInput>({
  id: 'image-upscaler',
  request,
  prepare(body) {
    const b = parseRequest(request, body);
    const chosen = upscaleTargetOf(b);
    if ('message' in chosen) throw new InputError(chosen.field, chosen.message);
    const { target } = chosen;
    if (target.kind === 'scale') {
      const rules = withShapeLimits('image-upscaler', upscaleInputRules(IMAGE, target.scale));
      const image = decodeImageField('image', b.image, rules);
      return {
        input: { tool: 'image-upscaler', image, scale: target.scale, ...resultFileFields('image-upscaler', b, image) },
        units: 1,
        images: [image],
      };
    }
    // The plan's own refusals name the largest size this image can be made; a scale's input limit
    // refuses nothing (the photo is made smaller for it).
    const image = decodeImageField('image', b.image, withShapeLimits('image-upscaler', IMAGE));
    const planned = planUpscale(image, target);
    if (!planned.ok) throw new InputError(target.kind === 'print' ? 'printSize' : 'image', planned.message);
    const { scale, resultSize, modelInput } = planned.plan;
    const modelStep =
      scale === null
        ? // The upload itself is the finishing's input: in the format the model would have answered in.
          { withoutModel: true as const, outputFormat: b.outputFormat ?? DEFAULT_OUTPUT_FORMAT['image-upscaler'] }
        : { scale, ...(modelInput ? { modelInputSize: modelInput.resize } : {}) };
    const asked =
      target.kind === 'width'
        ? { targetWidth: target.width }
        : target.kind === 'height'
          ? { targetHeight: target.height }
          : { printSize: target.printSize, dpi: target.dpi };
    return {
      // One call whatever the scale, a resize with no model run too: the tool's price is per request
      // (pricing/prices.ts; decision 084).
      input: {
        tool: 'image-upscaler',
        image,
        ...asked,
        resultSize,
        ...resultFileFields('image-upscaler', b, image),
        ...modelStep,
      },
      units: 1,
      images: [image],
    };
  },
  replicate: {
    model: 'nightmareai/real-esrgan',
    // Replicate's own model-page example (cat.jpg) and many public callers use f121d640…; the older
    // 42fed1c4… also still appears on replicate.com prediction pages.
    version: 'f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
    output: 'single',
    buildInput: (r, image) => ({ image, scale: modelScale(r), face_enhance: false }),
  },
  demo: (input) => resizedUpload(input.image, modelScale(input)),
  local: async () => {
    const { imageUpscalerEngine } = await import('../../inference/local/upscale/upscale-engines');
    return (input, signal) => imageUpscalerEngine({ image: input.image, scale: modelScale(input) }, signal);
  },
});
