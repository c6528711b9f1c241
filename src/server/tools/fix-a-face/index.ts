// Fix a Face: restore faces in a portrait, at 2x (GFPGAN on Replicate; locally face detection and
// Real-ESRGAN x4fast on the face regions, said so on the page).

import { request } from '../../../contract/tools/fix-a-face/request';
import type { ImageInput } from '../../images/image-types';
import { resizedUpload } from '../../inference/demo/demo-images';
import { IMAGE, prepareOneImage, type ResultFileFields, upscaleInputRules } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type FixAFaceInput = { tool: 'fix-a-face'; image: ImageInput; scale: 2 } & ResultFileFields;

export const fixAFace = defineServerTool<FixAFaceInput>({
  id: 'fix-a-face',
  request,
  // The portrait comes back at twice its size: the 2x input limit applies before charging.
  prepare: (body) => prepareOneImage('fix-a-face', request, body, upscaleInputRules(IMAGE, 2), { scale: 2 as const }),
  replicate: {
    model: 'tencentarc/gfpgan',
    // replicate.com/tencentarc/gfpgan/versions/0fbacf7a…/api (img, version default v1.4, scale).
    version: '0fbacf7afc6c144e5be9767cff80f25aff23e52b0708f17e20f9879b2f21516c',
    output: 'single',
    buildInput: (r, image) => ({ img: image, version: 'v1.4', scale: r.scale }),
  },
  demo: (input) => resizedUpload(input.image, input.scale),
  local: async () => (await import('../../inference/local/faces/fix-a-face')).fixAFaceEngine,
  // No face, or only faces too small to restore: refused before the charge (restorable-faces.ts).
  localPrecheck: async () => (await import('../../inference/local/faces/restorable-faces')).fixAFacePrecheck,
});
