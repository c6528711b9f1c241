// Image Analyzer: keywords and the colour palette of an image (a batch of them: a CSV).
import type { ToolDefinition } from '../../tool-definition';

export const imageAnalyzer = {
  id: 'image-analyzer',
  title: 'Image Analyzer',
  menuLabel: 'Image Analyzer',
  route: '/image-analyzer',
  apiPath: '/analyze-image',
  cost: 1,
  costPer: 'request',
  summary: 'Keywords and the colour palette of any image.',
  response: 'analysis',
  failureMessage: 'Image analysis failed. Please try again.',
  icon: 'scan-search',
  sendLabel: 'Analyzer',
  // It only measures: the most the explicit-content check (224 x 224, whole image) is trusted with.
  image: { minSide: 8, maxAspect: 20 },
  batch: true,
} as const satisfies ToolDefinition;
