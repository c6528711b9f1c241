// Metamorphose: a reference face in a new scene.
import type { ToolDefinition } from '../../tool-definition';

export const metamorphose = {
  id: 'metamorphose',
  title: 'Metamorphose',
  menuLabel: 'Metamorphose',
  route: '/metamorphose',
  apiPath: '/metamorphose-image',
  cost: 9,
  costPer: 'image',
  summary: 'Turn a reference photo of a face into a new scene you describe.',
  response: 'image-list',
  failureMessage: 'Failed to generate images',
  icon: 'scan-face',
  featured: true,
  prompt: true,
  image: { minSide: 8, maxAspect: 10, spec5MB: true },
  resultFiles: { format: 'webp', downloadName: (n: number) => `metamorphose-${n}.webp` },
} as const satisfies ToolDefinition;
