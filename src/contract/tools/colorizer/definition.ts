// Colorizer: colour for black-and-white photos.
import { WEBP_MAX_SIDE } from '../../output-formats';
import type { ToolDefinition } from '../../tool-definition';

export const colorizer = {
  id: 'colorizer',
  title: 'Colorizer',
  menuLabel: 'Colorizer',
  route: '/colorizer',
  apiPath: '/colorize-image',
  cost: 6,
  costPer: 'request',
  summary: 'Bring black-and-white photos to life with natural colour.',
  response: 'image',
  failureMessage: 'Colorization failed. Please try again.',
  icon: 'paintbrush',
  // Its webp result has the upload's size: the longest side webp can encode (WEBP_MAX_SIDE).
  image: { minSide: 8, maxAspect: 10, maxSide: WEBP_MAX_SIDE },
  batch: true,
  resultFiles: { format: 'webp', downloadName: () => 'colorized-image.webp' },
} as const satisfies ToolDefinition;
