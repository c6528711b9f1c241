// Background Swap: the subject kept, a described background around it (ad-inpaint on Replicate;
// locally the subject is cut out for real and set on a drawn, labelled background).
import { request } from '../../../contract/tools/background-swap/request';
import { decodeImageField } from '../../images/image-input';
import type { ImageInput } from '../../images/image-types';
import { DEMO_SIZES, uploadOnCards } from '../../inference/demo/demo-images';
import { parseRequest, type ResultFileFields, resultFileFields, UPLOAD_5MB, withShapeLimits } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type BackgroundSwapInput = {
  tool: 'background-swap';
  prompt: string;
  image: ImageInput;
  numOutputs: number;
} & ResultFileFields;

export const backgroundSwap = defineServerTool<BackgroundSwapInput>({
  id: 'background-swap',
  request,
  prepare(body) {
    const b = parseRequest(request, body);
    const image = decodeImageField('image', b.image, withShapeLimits('background-swap', UPLOAD_5MB));
    return {
      input: {
        tool: 'background-swap',
        prompt: b.prompt,
        image,
        numOutputs: b.num_outputs,
        ...resultFileFields('background-swap', b, image),
      },
      units: b.num_outputs,
      images: [image],
    };
  },
  replicate: {
    model: 'logerzhu/ad-inpaint',
    // replicate.com/logerzhu/ad-inpaint/versions/b1c17d14… (the version with image_num). Its output
    // starts with the product cut-out (public callers use output.slice(1)).
    version: 'b1c17d148455c1fda435ababe9ab1e03bc0d917cc3cf4251916f22c45c83c7df',
    output: 'cutout-then-list',
    buildInput: (r, image) => ({ image_path: image, prompt: r.prompt, image_num: r.numOutputs }),
  },
  demo: (input) =>
    uploadOnCards(input.image, input.prompt, {
      count: input.numOutputs,
      size: DEMO_SIZES['1:1'],
      title: 'Background Swap',
      quality: 80,
    }),
  local: async ({ backgroundModel }) => {
    const { createBackgroundSwapEngine } = await import('../../inference/local/background/background-engines');
    const engine = createBackgroundSwapEngine(backgroundModel);
    return ({ image, prompt, numOutputs }, signal) => engine({ image, prompt, count: numOutputs }, signal);
  },
});
