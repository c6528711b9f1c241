// Text Lab on the web: the contract's entry, its page (a lazy chunk), its words and its client rules
// (product-spec.md sections 5 to 8).

import { IMAGE_DOWNLOAD_NAMES } from '../../../../contract/download-names';
import { BUSY_LABEL, promptChecks } from '../tool-rules';
import { defineWebTool } from '../web-tool';
import { imagesWorkspace } from '../workspace';

export const textLab = defineWebTool('text-lab', {
  workspace: imagesWorkspace(
    'Prompt and settings',
    'Your images',
    'Generated designs appear here, each ready to download.',
  ),
  submitChecks: promptChecks('Please log in to use Text Lab.'),
  checksAccountFlags: true,
  busyLabel: BUSY_LABEL.generate,
  failureText: { fallback: 'An error occurred', network: 'Failed to generate image' },
  result: { kind: 'images', fileName: IMAGE_DOWNLOAD_NAMES['text-lab'] },
  apiExample: { prompt: 'A neon sign that says OPEN LATE above a diner door', aspectRatio: '16:9' },
});
