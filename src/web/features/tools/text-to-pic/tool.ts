// Text to Pic on the web: the contract's entry, its page (a lazy chunk), its words and its client rules
// (product-spec.md sections 5 to 8).

import { IMAGE_DOWNLOAD_NAMES } from '../../../../contract/download-names';
import { OUTPUT_QUALITY } from '../../../../contract/tools';
import { BUSY_LABEL, promptChecks } from '../tool-rules';
import { defineWebTool } from '../web-tool';
import { imagesWorkspace } from '../workspace';

export const textToPic = defineWebTool('text-to-pic', {
  workspace: imagesWorkspace(
    'Prompt and settings',
    'Your images',
    'Generated images appear here: click one to download it.',
  ),
  submitChecks: promptChecks('Please log in to generate images.'),
  checksAccountFlags: true,
  busyLabel: BUSY_LABEL.generate,
  failureText: { fallback: 'An error occurred', network: 'Technical difficulties. Please try again in a few moments.' },
  result: { kind: 'images', fileName: IMAGE_DOWNLOAD_NAMES['text-to-pic'], clickToDownload: true },
  apiExample: { prompt: 'A lighthouse on a cliff at dusk, watercolour', aspectRatio: '16:9', numOutputs: '2' },
  // The schema takes any of 33, 66, 100; the server takes only the one `quality` sets.
  apiFieldNotes: {
    outputQuality: `the one its quality sets (${Object.entries(OUTPUT_QUALITY)
      .map(([quality, value]) => `${quality} ${value}`)
      .join(', ')})`,
  },
});
