// Background Remover on the web: the contract's entry, its page (a lazy chunk), its words and its client rules
// (product-spec.md sections 5 to 8).

import { IMAGE_DOWNLOAD_NAMES } from '../../../../contract/download-names';
import { BUSY_LABEL, singleImageChecks } from '../tool-rules';
import { defineWebTool } from '../web-tool';
import { imagesWorkspace } from '../workspace';

export const backgroundRemover = defineWebTool('background-remover', {
  workspace: imagesWorkspace('Your image', 'Cut-out', 'The subject on a transparent background appears here as a PNG.'),
  submitChecks: singleImageChecks('Please log in to remove background.'),
  checksAccountFlags: true,
  busyLabel: BUSY_LABEL.process,
  result: { kind: 'images', fileName: IMAGE_DOWNLOAD_NAMES['background-remover'], compare: 'cutout' },
  loadRefineEditor: () => import('./refine/RefineEditor').then((m) => m.RefineEditor),
  apiExample: { image: '@photo.jpg' },
  apiGuide: true,
});
