// Each tool's input limits in words, for developers: the OpenAPI document's operation descriptions
// and the /developers page say the same, from the limits the server enforces (input-limits.ts,
// tools.ts). No zod here.
import { formatCount, formatFileSize, IMAGE_MAX_PIXELS_LABEL, imageByteLimit, MAX_PROMPT_CHARS } from './input-limits';
import {
  type ImageToolId,
  MAX_IMAGES_PER_REQUEST,
  type ToolDefinition,
  type ToolId,
  toolById,
  UPSCALE_MAX_INPUT,
} from './tools';

/** "1 token per image", "9 tokens per request". */
export function costInWords(tool: Pick<ToolDefinition, 'cost' | 'costPer'>): string {
  return `${tool.cost} token${tool.cost === 1 ? '' : 's'} per ${tool.costPer}`;
}

/** The limits a call of `tool` must keep, one sentence each (from its definition: every tool has them). */
export function toolInputLimits(id: ToolId): string[] {
  const tool = toolById(id);
  const limits: string[] = [];
  if (tool.prompt) limits.push(`Prompt: 1 to ${formatCount(MAX_PROMPT_CHARS)} characters.`);
  if (tool.image) {
    const { maxBytes } = imageByteLimit(id as ImageToolId);
    limits.push(`Image: PNG, JPG or WEBP, at most ${formatFileSize(maxBytes)}.`);
    const { scales, minSide, maxAspect, maxSide } = tool.image;
    if (scales) {
      limits.push(
        `Largest input: ${scales.map((scale) => `${UPSCALE_MAX_INPUT[scale].label} px at ${scale}x`).join(', ')}.`,
      );
    } else {
      limits.push(`At most ${IMAGE_MAX_PIXELS_LABEL}.`);
    }
    limits.push(`Shortest side at least ${minSide} px; longest side at most ${maxAspect} times the shortest.`);
    if (maxSide !== undefined) limits.push(`Longest side at most ${formatCount(maxSide)} px.`);
  }
  if (tool.manyOutputs) limits.push(`1 to ${MAX_IMAGES_PER_REQUEST} images a call.`);
  return limits;
}
