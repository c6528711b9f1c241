// Background Remover: the subject on a transparent PNG (851-labs/background-remover on Replicate;
// ISNet on this machine).

import { BLUR_STRENGTH, MODE_RESULT } from '../../../contract/output-files';
import { modeConflict, request } from '../../../contract/tools/background-remover/request';
import { decodeImageField, InputError } from '../../images/image-input';
import type { ImageInput } from '../../images/image-types';
import { resized } from '../../inference/demo/demo-images';
import { IMAGE, parseRequest, type ResultFileFields, resultFileFields, withShapeLimits } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type BackgroundRemoverInput = { tool: 'background-remover'; image: ImageInput } & ResultFileFields;

export const backgroundRemover = defineServerTool<BackgroundRemoverInput>({
  id: 'background-remover',
  request,
  prepare(body) {
    const b = parseRequest(request, body);
    // A contradiction (a cut-out's finishing with a blur, a strength without one) is refused before the image is decoded.
    const conflict = modeConflict(b);
    if (conflict) throw new InputError(conflict.field, conflict.reason);
    const mode = b.mode ?? 'cutout';
    const image = decodeImageField('image', b.image, withShapeLimits('background-remover', IMAGE));
    // A blur is an opaque photo (JPEG is fine), a mask a PNG: the format they are kept in goes with the job.
    const file = resultFileFields(
      'background-remover',
      { ...b, outputFormat: b.outputFormat ?? MODE_RESULT[mode]?.format },
      image,
      mode === 'blur' ? undefined : 'cut-out',
    );
    // The job keeps the mode and the defaults it ran with (result-files.ts reads them for the finishing).
    const modeFields =
      mode === 'mask'
        ? { mode }
        : mode === 'blur'
          ? { mode, blurStrength: b.blurStrength ?? BLUR_STRENGTH.default, cleanEdges: b.cleanEdges ?? true }
          : { cleanEdges: b.cleanEdges ?? true };
    return { input: { tool: 'background-remover', image, ...file, ...modeFields }, units: 1, images: [image] };
  },
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
