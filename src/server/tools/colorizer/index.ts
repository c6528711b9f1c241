// Colorizer: colour for black-and-white photos (DDColor on Replicate; no local weights, so the
// labelled demo, a sepia tint, stands in locally).

import { request } from '../../../contract/tools/colorizer/request';
import type { ImageInput } from '../../images/image-types';
import { resizedUpload } from '../../inference/demo/demo-images';
import { IMAGE, prepareOneImage, type ResultFileFields } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type ColorizerInput = { tool: 'colorizer'; image: ImageInput } & ResultFileFields;

export const colorizer = defineServerTool<ColorizerInput>({
  id: 'colorizer',
  request,
  prepare: (body) => prepareOneImage('colorizer', request, body, IMAGE, {}),
  replicate: {
    model: 'piddnad/ddcolor',
    // replicate.com/p/pkxytzdbkuach644xwzyouk5fu (model_size "large") and public callers.
    version: 'ca494ba129e44e45f661d6ece83c4c98a9a7c774309beca01429b58fce8aa695',
    output: 'single',
    buildInput: (_r, image) => ({ image, model_size: 'large' }),
  },
  demo: (input) => resizedUpload(input.image, 1, 'sepia'),
});
