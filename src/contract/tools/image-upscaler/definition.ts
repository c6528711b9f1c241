// Image Upscaler: 2x, 4x or 6x.
import type { ToolDefinition } from '../../tool-definition';

export const imageUpscaler = {
  id: 'image-upscaler',
  title: 'Image Upscaler',
  menuLabel: 'Image Upscaler',
  route: '/image-upscaler',
  apiPath: '/upscale-image',
  cost: 1,
  costPer: 'request',
  summary: 'Enlarge images 2x, 4x or 6x with sharp detail.',
  response: 'image',
  failureMessage: 'Upscale failed. Please try again.',
  icon: 'maximize-2',
  sendLabel: 'Upscaler',
  // Its model works in tiles; the largest input is each scale's.
  image: { minSide: 8, maxAspect: 20, scales: [2, 4, 6] },
  batch: true,
  resultFiles: { format: 'webp', downloadName: () => 'upscaled-image.webp', transparency: 'upload' },
} as const satisfies ToolDefinition;
