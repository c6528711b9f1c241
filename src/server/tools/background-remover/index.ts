// Background Remover: the subject on a transparent PNG (851-labs/background-remover on Replicate;
// ISNet on this machine).

import type { ImageInput } from '../../images/image-types';
import { resized } from '../../inference/demo/demo-images';
import { IMAGE, prepareOneImage, type ResultFileFields } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type BackgroundRemoverInput = { tool: 'background-remover'; image: ImageInput } & ResultFileFields;

export const backgroundRemover = defineServerTool<BackgroundRemoverInput>({
  id: 'background-remover',
  prepare: (body) => prepareOneImage('background-remover', body, IMAGE, {}),
  replicate: {
    model: '851-labs/background-remover',
    // replicate.com/851-labs/background-remover/versions/a029dff3…/api (output: one PNG URI).
    version: 'a029dff38972b5fda4ec5d75d7d1cd25aeff621d2cf4946a41055d7db66b80bc',
    output: 'single',
    buildInput: (_r, image) => ({ image }),
  },
  async demo(input) {
    // A PNG, as the real tool's: the labelled upload with an alpha channel (nothing cut out).
    const image = await resized(input.image, 1);
    return {
      kind: 'images',
      images: [{ bytes: await image.ensureAlpha().png().toBuffer(), contentType: 'image/png' }],
    };
  },
  local: async ({ backgroundModel }) =>
    (await import('../../inference/local/background/background-engines')).createBackgroundRemoverEngine(
      backgroundModel,
    ),
});
