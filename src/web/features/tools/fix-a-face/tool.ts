// Fix a Face on the web: the contract's entry, its page (a lazy chunk), its words and its client rules
// (product-spec.md sections 5 to 8).

import { IMAGE_DOWNLOAD_NAMES } from '../../../../contract/download-names';
import { BUSY_LABEL, singleImageChecks } from '../tool-rules';
import { defineWebTool } from '../web-tool';
import { imagesWorkspace } from '../workspace';

export const fixAFace = defineWebTool('fix-a-face', {
  workspace: imagesWorkspace('Portrait', 'Restored portrait', 'The restored portrait appears here, ready to download.'),
  submitChecks: singleImageChecks('Please log in to fix faces.'),
  checksAccountFlags: true,
  busyLabel: BUSY_LABEL.process,
  result: { kind: 'images', fileName: IMAGE_DOWNLOAD_NAMES['fix-a-face'], compare: 'photo' },
  localEngineNote:
    'Local engine, not GFPGAN: faces are found, restored by a super-resolution model at twice the size and blended back into a 2x upscale.',
  apiExample: { image: '@portrait.jpg' },
});
