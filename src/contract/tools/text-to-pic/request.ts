// Text to Pic's request body (product-spec.md section 7).
import { z } from 'zod';
import { aspectRatio, imageCount, literal, outputFormat, prompt, userId, webhook } from '../../request-fields';
import { OUTPUT_QUALITY, QUALITIES } from '../../tools';

export const request = z.object({
  userId,
  prompt,
  aspectRatio: aspectRatio.default('1:1'),
  numOutputs: imageCount.default(1),
  quality: z.enum(QUALITIES, { error: `must be one of ${QUALITIES.join(', ')}` }).default('high'),
  goFast: literal(true).default(true),
  outputFormat: outputFormat.default('webp'),
  outputQuality: z
    .union([literal(33), literal(66), literal(100)], { error: 'must be 33, 66 or 100' })
    .optional()
    .describe(
      `The one \`quality\` sets (${Object.entries(OUTPUT_QUALITY)
        .map(([quality, value]) => `${quality} ${value}`)
        .join(', ')}); another is refused (400). Leave it out to follow \`quality\`.`,
    ),
  webhook,
});

// Its entry in the type of every tool's request (ToolRequestSchemas, what the pages' bodies are typed by).
declare module '../../tool-requests' {
  interface ToolRequestSchemas {
    'text-to-pic': typeof request;
  }
}
