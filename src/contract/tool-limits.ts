// Each tool's input limits in words, for developers: the OpenAPI document's operation descriptions
// and the /developers page say the same, from the limits the server enforces (input-limits.ts,
// tools.ts). No zod here.
import { formatCount, formatFileSize, IMAGE_MAX_PIXELS_LABEL, imageByteLimit, MAX_PROMPT_CHARS } from './input-limits';
import {
  IMAGE_SHAPE_LIMITS,
  type ImageToolId,
  MAX_IMAGES_PER_REQUEST,
  SCALED_INPUT_TOOLS,
  type ToolDefinition,
  type ToolId,
  UPSCALE_MAX_INPUT,
} from './tools';

const TOOLS_WITHOUT_IMAGE: readonly ToolId[] = ['text-to-pic', 'text-lab'];
const TOOLS_WITH_PROMPT: readonly ToolId[] = ['text-to-pic', 'metamorphose', 'text-lab', 'background-swap'];

const isImageTool = (tool: ToolId): tool is ImageToolId => !TOOLS_WITHOUT_IMAGE.includes(tool);

/** "1 token per image", "9 tokens per request". */
export function costInWords(tool: Pick<ToolDefinition, 'cost' | 'costPer'>): string {
  return `${tool.cost} token${tool.cost === 1 ? '' : 's'} per ${tool.costPer}`;
}

/** The limits a call of `tool` must keep, one sentence each. */
export function toolInputLimits(tool: ToolId): string[] {
  const limits: string[] = [];
  if (TOOLS_WITH_PROMPT.includes(tool)) limits.push(`Prompt: 1 to ${formatCount(MAX_PROMPT_CHARS)} characters.`);
  if (isImageTool(tool)) {
    const { maxBytes } = imageByteLimit(tool);
    limits.push(`Image: PNG, JPG or WEBP, at most ${formatFileSize(maxBytes)}.`);
    if (SCALED_INPUT_TOOLS.includes(tool)) {
      const scales = tool === 'image-upscaler' ? ([2, 4, 6] as const) : ([2] as const);
      limits.push(
        `Largest input: ${scales.map((scale) => `${UPSCALE_MAX_INPUT[scale].label} px at ${scale}x`).join(', ')}.`,
      );
    } else {
      limits.push(`At most ${IMAGE_MAX_PIXELS_LABEL}.`);
    }
    const { minSide, maxAspect, maxSide } = IMAGE_SHAPE_LIMITS[tool];
    limits.push(`Shortest side at least ${minSide} px; longest side at most ${maxAspect} times the shortest.`);
    if (maxSide !== undefined) limits.push(`Longest side at most ${formatCount(maxSide)} px.`);
  }
  if (tool === 'text-to-pic' || tool === 'background-swap')
    limits.push(`1 to ${MAX_IMAGES_PER_REQUEST} images a call.`);
  return limits;
}
