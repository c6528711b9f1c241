// Background Remover: the subject on a transparent background, or finished for a shop.
import type { ToolDefinition } from '../../tool-definition';

export const backgroundRemover = {
  id: 'background-remover',
  title: 'Background Remover',
  menuLabel: 'Remove Background',
  route: '/background-remover',
  apiPath: '/remove-background',
  cost: 2,
  costPer: 'request',
  summary: 'Cut out the subject and get a transparent PNG.',
  response: 'image',
  failureMessage: 'Background removal failed. Please try again.',
  icon: 'eraser',
  sendLabel: 'Background Remover',
  image: { minSide: 8, maxAspect: 10 },
  batch: true,
  resultFiles: { format: 'png', downloadName: () => 'background-removed.png', transparency: 'cut-out' },
  refine: true,
} as const satisfies ToolDefinition;
