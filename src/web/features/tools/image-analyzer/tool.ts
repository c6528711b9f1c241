// Image Analyzer on the web: the contract's entry, its page (a lazy chunk), its words and its client rules
// (product-spec.md sections 5 to 8).

import { BUSY_LABEL, singleImageChecks } from '../tool-rules';
import { defineWebTool } from '../web-tool';
import { analysisWorkspace } from '../workspace';

export const imageAnalyzer = defineWebTool('image-analyzer', {
  workspace: analysisWorkspace(
    'Your image',
    'Keywords and colors',
    'Keywords with their scores and the image’s palette appear here.',
  ),
  submitChecks: singleImageChecks('Please log in to analyze image.'),
  checksAccountFlags: true,
  busyLabel: BUSY_LABEL.process,
  result: { kind: 'analysis' },
  localEngineNote:
    'Local engine: keywords come from object, face, expression and text-reading models running on this server, and whether it is a photo or an illustration; colours are measured from the pixels.',
  apiExample: { image: '@photo.jpg' },
});
