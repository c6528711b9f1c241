// Creative Upscaler: 2x with invented detail.
import type { ToolDefinition } from '../../tool-definition';

export const creativeUpscaler = {
  id: 'creative-upscaler',
  title: 'Creative Upscaler',
  menuLabel: 'Creative Upscaler',
  route: '/creative-upscale',
  apiPath: '/creative-upscale',
  cost: 70,
  costPer: 'request',
  // On the local engine its result is close to the Image Upscaler's: priced like it (decision 039).
  localPrice: 1,
  summary: 'Upscale 2x while inventing fine detail and texture.',
  response: 'image',
  failureMessage: 'Creative upscale failed. Please use a smaller image size.',
  icon: 'wand-sparkles',
  // Its model works in tiles: a long, thin image is fine within the 2x input limit.
  image: { minSide: 8, maxAspect: 20, scales: [2] },
  batch: true,
  resultFiles: { format: 'webp', downloadName: () => 'creative-upscaled.webp' },
} as const satisfies ToolDefinition;
