// Image Upscaler: 2x, 4x or 6x (Real-ESRGAN on Replicate; locally Real-ESRGAN's compact x4fast network).
import { decodeImageField } from '../../images/image-input';
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

export type ImageUpscalerInput = { tool: 'image-upscaler'; image: ImageInput; scale: 2 | 4 | 6 } & ResultFileFields;

export const imageUpscaler = defineServerTool<ImageUpscalerInput>({
  id: 'image-upscaler',
  prepare(body) {
    const b = parseRequest('image-upscaler', body);
    const rules = withShapeLimits('image-upscaler', upscaleInputRules(IMAGE, b.scale));
    const image = decodeImageField('image', b.image, rules);
    return {
      input: { tool: 'image-upscaler', image, scale: b.scale, ...resultFileFields('image-upscaler', b, image) },
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
    buildInput: (r, image) => ({ image, scale: r.scale, face_enhance: false }),
  },
  demo: (input) => resizedUpload(input.image, input.scale),
  local: async () => (await import('../../inference/local/upscale/upscale-engines')).imageUpscalerEngine,
});
