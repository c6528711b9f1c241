// Background Swap on the web: the contract's entry, its page (a lazy chunk), its words and its client rules
// (product-spec.md sections 5 to 8).

import { IMAGE_DOWNLOAD_NAMES } from '../../../../contract/download-names';
import { BUSY_LABEL, uploadChecks } from '../tool-rules';
import { defineWebTool } from '../web-tool';
import { imagesWorkspace } from '../workspace';

export const backgroundSwap = defineWebTool('background-swap', {
  workspace: imagesWorkspace(
    'Subject and new background',
    'Your images',
    'The subject in its new scene appears here, ready to download.',
  ),
  submitChecks: uploadChecks('Please log in to swap backgrounds', 'Please upload an image'),
  checksAccountFlags: false,
  busyLabel: BUSY_LABEL.generate,
  failureText: { fallback: 'Failed to generate images', network: 'Failed to generate images' },
  result: { kind: 'images', fileName: IMAGE_DOWNLOAD_NAMES['background-swap'], compare: 'photo' },
  localEngineNote:
    'Local engine: your subject is cut out by a real model, but the new backgrounds are simple scenes drawn from your description and marked DEMO.',
  localPreviewNotice: 'Free preview: a real cut-out on labelled sample backgrounds.',
  apiExample: { image: '@product.jpg', prompt: 'On a marble table by a sunny window' },
});
