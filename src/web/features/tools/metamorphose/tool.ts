// Metamorphose on the web: the contract's entry, its page (a lazy chunk), its words and its client rules
// (product-spec.md sections 5 to 8).

import { IMAGE_DOWNLOAD_NAMES } from '../../../../contract/download-names';
import { BUSY_LABEL, uploadChecks } from '../tool-rules';
import { defineWebTool } from '../web-tool';
import { imagesWorkspace } from '../workspace';

export const metamorphose = defineWebTool('metamorphose', {
  workspace: imagesWorkspace(
    'Reference face and prompt',
    'Your images',
    'The new portrait appears here, ready to download.',
  ),
  submitChecks: uploadChecks('Please log in to generate images', 'Please upload a reference image'),
  checksAccountFlags: false,
  busyLabel: BUSY_LABEL.generate,
  failureText: { fallback: 'Generation failed', network: 'Please try using a smaller image or try generating again.' },
  result: { kind: 'images', fileName: IMAGE_DOWNLOAD_NAMES.metamorphose },
  apiExample: { prompt: 'An astronaut on the Moon, a film photo', main_face_image: '@face.jpg' },
});
