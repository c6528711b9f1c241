// Creative Upscaler: 2x with invented detail (clarity-upscaler on Replicate; locally Real-ESRGAN's
// large x4plus network, which redraws texture, said so on the page, and priced like the Image
// Upscaler, whose results it only roughly matches: decision 039).
import { toolById } from '../../../contract/tools';
import { request } from '../../../contract/tools/creative-upscaler/request';
import type { ImageInput } from '../../images/image-types';
import { resizedUpload } from '../../inference/demo/demo-images';
import { IMAGE, prepareOneImage, type ResultFileFields, upscaleInputRules } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type CreativeUpscalerInput = { tool: 'creative-upscaler'; image: ImageInput; scale: 2 } & ResultFileFields;

export const creativeUpscaler = defineServerTool<CreativeUpscalerInput>({
  id: 'creative-upscaler',
  request,
  // The image comes back at twice its size: the 2x input limit applies before charging.
  prepare: (body) =>
    prepareOneImage('creative-upscaler', request, body, upscaleInputRules(IMAGE, 2), { scale: 2 as const }),
  replicate: {
    model: 'philz1337x/clarity-upscaler',
    // replicate.com/philz1337x/clarity-upscaler/versions/dfad4170… (example reads output[0]).
    version: 'dfad41707589d68ecdccd1dfa600d55a208f9310748e44bfe35b4a6291453d5e',
    output: 'first',
    buildInput: (r, image) => ({ image, scale_factor: r.scale }),
  },
  demo: (input) => resizedUpload(input.image, input.scale),
  local: async () => {
    const { creativeUpscalerEngine } = await import('../../inference/local/upscale/upscale-engines');
    // An upload past 2x's limit (checked before the charge, so rare) is refused with the tool's message.
    const tooLargeMessage = toolById('creative-upscaler').failureMessage;
    return ({ image }, signal) => creativeUpscalerEngine({ image, tooLargeMessage }, signal);
  },
});
