// Image Upscaler on the web: the contract's entry, its page (a lazy chunk), its words and its client rules
// (product-spec.md sections 5 to 8).

import { IMAGE_DOWNLOAD_NAMES } from '../../../../contract/download-names';
import { BUSY_LABEL, singleImageChecks } from '../tool-rules';
import { defineWebTool } from '../web-tool';
import { imagesWorkspace } from '../workspace';

export const imageUpscaler = defineWebTool('image-upscaler', {
  workspace: imagesWorkspace('Your image', 'Upscaled image', 'The enlarged image appears here, ready to download.'),
  submitChecks: singleImageChecks('Please log in to upscale images.'),
  checksAccountFlags: true,
  busyLabel: BUSY_LABEL.process,
  result: { kind: 'images', fileName: IMAGE_DOWNLOAD_NAMES['image-upscaler'], compare: 'photo' },
  apiExample: { image: '@photo.jpg', scale: '4' },
});
