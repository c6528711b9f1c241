// Creative Upscaler on the web: the contract's entry, its page (a lazy chunk), its words and its client rules
// (product-spec.md sections 5 to 8).

import { IMAGE_DOWNLOAD_NAMES } from '../../../../contract/download-names';
import { BUSY_LABEL, singleImageChecks } from '../tool-rules';
import { defineWebTool } from '../web-tool';
import { imagesWorkspace } from '../workspace';

export const creativeUpscaler = defineWebTool('creative-upscaler', {
  workspace: imagesWorkspace(
    'Your image',
    'Upscaled (2x)',
    'The enlarged, re-detailed image appears here, ready to download.',
  ),
  submitChecks: singleImageChecks('Please log in to upscale images.'),
  checksAccountFlags: true,
  busyLabel: BUSY_LABEL.process,
  result: { kind: 'images', fileName: IMAGE_DOWNLOAD_NAMES['creative-upscaler'], compare: 'photo' },
  localEngineNote:
    'Local engine, not the hosted Clarity upscaler: a large restoration model (Real-ESRGAN x4plus) redraws texture, blended with a lighter model and a plain resize so that it stays true to your photo.',
  lowerPriceNote:
    'Priced like the Image Upscaler here: its results on this server are close to the Image Upscaler’s, so it costs the same.',
  apiExample: { image: '@photo.jpg' },
});
