// Image Analyzer: keywords and the colour palette. No Replicate model: the local models (Human's
// object detector, a colour palette in OKLab) serve it, or the demo's plain measurements.

import { request } from '../../../contract/tools/image-analyzer/request';
import type { ImageInput } from '../../images/image-types';
import { analyze } from '../../inference/demo/demo-images';
import { IMAGE, prepareOneImage } from '../request-checks';
import { defineServerTool } from '../server-tool';

export type ImageAnalyzerInput = { tool: 'image-analyzer'; image: ImageInput };

export const imageAnalyzer = defineServerTool<ImageAnalyzerInput>({
  id: 'image-analyzer',
  request,
  prepare: (body) => prepareOneImage('image-analyzer', request, body, IMAGE, {}),
  demo: async (input) => ({ kind: 'analysis', ...(await analyze(input.image)) }),
  local: async () => (await import('../../inference/local/analyze/analyze-image')).imageAnalyzerEngine,
});
