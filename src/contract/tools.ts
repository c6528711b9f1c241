// The ten tools: one table shared by server and web (routes, API paths, costs, labels).
// Costs and counts are product-spec.md section 9; the server charges from this table only.

export const TOOL_IDS = [
  'text-to-pic',
  'metamorphose',
  'colorizer',
  'background-remover',
  'creative-upscaler',
  'fix-a-face',
  'text-lab',
  'background-swap',
  'image-upscaler',
  'image-analyzer',
] as const;

export type ToolId = (typeof TOOL_IDS)[number];

export interface ToolDefinition {
  id: ToolId;
  /** Page heading and document title. */
  title: string;
  /** Sidebar label (product-spec.md section 2, "Menu labels"). */
  menuLabel: string;
  /** Client-side route. */
  route: `/${string}`;
  /** Backend call, under /api (product-spec.md section 7). */
  apiPath: `/${string}`;
  /** Tokens per unit. */
  cost: number;
  /** What the cost is multiplied by: each image asked for, or one request. */
  costPer: 'image' | 'request';
  /** One line under the title: what the tool does. */
  summary: string;
}

export const TOOLS: readonly ToolDefinition[] = [
  {
    id: 'text-to-pic',
    title: 'Text to Pic',
    menuLabel: 'Text to Pic',
    route: '/text-to-pic',
    apiPath: '/generate-image',
    cost: 1,
    costPer: 'image',
    summary: 'Describe a picture and get up to four images in seconds.',
  },
  {
    id: 'metamorphose',
    title: 'Metamorphose',
    menuLabel: 'Metamorphose',
    route: '/metamorphose',
    apiPath: '/metamorphose-image',
    cost: 9,
    costPer: 'image',
    summary: 'Turn a reference photo of a face into a new scene you describe.',
  },
  {
    id: 'colorizer',
    title: 'Colorizer',
    menuLabel: 'Colorizer',
    route: '/colorizer',
    apiPath: '/colorize-image',
    cost: 6,
    costPer: 'request',
    summary: 'Bring black-and-white photos to life with natural colour.',
  },
  {
    id: 'background-remover',
    title: 'Background Remover',
    menuLabel: 'Remove Background',
    route: '/background-remover',
    apiPath: '/remove-background',
    cost: 2,
    costPer: 'request',
    summary: 'Cut out the subject and get a transparent PNG.',
  },
  {
    id: 'creative-upscaler',
    title: 'Creative Upscaler',
    menuLabel: 'Creative Upscaler',
    route: '/creative-upscale',
    apiPath: '/creative-upscale',
    cost: 70,
    costPer: 'request',
    summary: 'Upscale 2x while inventing fine detail and texture.',
  },
  {
    id: 'fix-a-face',
    title: 'Fix a Face',
    menuLabel: 'Fix a Face',
    route: '/face-fixer',
    apiPath: '/fix-face',
    cost: 2,
    costPer: 'request',
    summary: 'Restore blurry or damaged faces in portraits.',
  },
  {
    id: 'text-lab',
    title: 'Text Lab',
    menuLabel: 'Text Lab',
    route: '/text-lab',
    apiPath: '/text-lab',
    cost: 15,
    costPer: 'request',
    summary: 'Posters, logos and cards with crisp, legible lettering.',
  },
  {
    id: 'background-swap',
    title: 'Background Swap',
    menuLabel: 'Background Swap',
    route: '/background-swap',
    apiPath: '/background-swap',
    cost: 25,
    costPer: 'image',
    summary: 'Keep the subject, describe a new background around it.',
  },
  {
    id: 'image-upscaler',
    title: 'Image Upscaler',
    menuLabel: 'Image Upscaler',
    route: '/image-upscaler',
    apiPath: '/upscale-image',
    cost: 1,
    costPer: 'request',
    summary: 'Enlarge images 2x, 4x or 6x with sharp detail.',
  },
  {
    id: 'image-analyzer',
    title: 'Image Analyzer',
    menuLabel: 'Image Analyzer',
    route: '/image-analyzer',
    apiPath: '/analyze-image',
    cost: 1,
    costPer: 'request',
    summary: 'Keywords and the colour palette of any image.',
  },
];

export function toolById(id: ToolId): ToolDefinition {
  const tool = TOOLS.find((t) => t.id === id);
  if (!tool) throw new Error(`unknown tool ${id}`);
  return tool;
}
