// Fix a Face: restored faces in a portrait, at twice its size.
import type { ToolDefinition } from '../../tool-definition';

export const fixAFace = {
  id: 'fix-a-face',
  title: 'Fix a Face',
  menuLabel: 'Fix a Face',
  route: '/face-fixer',
  apiPath: '/fix-face',
  cost: 2,
  costPer: 'request',
  summary: 'Restore blurry or damaged faces in portraits.',
  response: 'image',
  failureMessage: 'Face fixing failed. Please try again.',
  icon: 'smile',
  // The image comes back at twice its size: the 2x input limit.
  image: { minSide: 8, maxAspect: 10, scales: [2] },
  batch: true,
  resultFiles: { format: 'webp', downloadName: () => 'fixed-face.webp' },
} as const satisfies ToolDefinition;
