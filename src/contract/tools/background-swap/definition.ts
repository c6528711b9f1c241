// Background Swap: the subject of a photo before a new background it describes.
import type { ToolDefinition } from '../../tool-definition';

export const backgroundSwap = {
  id: 'background-swap',
  title: 'Background Swap',
  menuLabel: 'Background Swap',
  route: '/background-swap',
  apiPath: '/background-swap',
  cost: 25,
  costPer: 'image',
  // Locally the cut-out is real, the backgrounds are labelled drawings: a free preview, not a result to pay for.
  localResult: 'preview',
  summary: 'Keep the subject, describe a new background around it.',
  response: 'image-list',
  failureMessage: 'Failed to generate images',
  icon: 'replace',
  sendLabel: 'Background Swap',
  prompt: true,
  image: { minSide: 8, maxAspect: 10, spec5MB: true },
  manyOutputs: true,
  resultFiles: { format: 'webp', downloadName: (n: number) => `background-swap-${n}.webp` },
} as const satisfies ToolDefinition;
