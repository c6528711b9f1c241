// Text Lab: posters, logos and cards with legible lettering, from a prompt.
import type { ToolDefinition } from '../../tool-definition';

export const textLab = {
  id: 'text-lab',
  title: 'Text Lab',
  menuLabel: 'Text Lab',
  route: '/text-lab',
  apiPath: '/text-lab',
  cost: 15,
  costPer: 'request',
  summary: 'Posters, logos and cards with crisp, legible lettering.',
  response: 'image-list',
  failureMessage: 'Failed to generate image',
  icon: 'letter-text',
  prompt: true,
  resultFiles: { format: 'webp', downloadName: (n: number) => `textlab-image-${n}.webp` },
} as const satisfies ToolDefinition;
