// Text to Pic: a prompt to up to four images.
import type { ToolDefinition } from '../../tool-definition';

export const textToPic = {
  id: 'text-to-pic',
  title: 'Text to Pic',
  menuLabel: 'Text to Pic',
  route: '/text-to-pic',
  apiPath: '/generate-image',
  cost: 1,
  costPer: 'image',
  summary: 'Describe a picture and get up to four images in seconds.',
  response: 'image-list',
  failureMessage: 'Failed to generate image',
  icon: 'image-plus',
  featured: true,
  prompt: true,
  manyOutputs: true,
  resultFiles: { format: 'webp', downloadName: (n: number) => `generated-image-${n}.webp` },
} as const satisfies ToolDefinition;
