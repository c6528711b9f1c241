// Text Lab's request body (product-spec.md section 7).
import { z } from 'zod';
import { aspectRatio, outputFormat, outputQuality, prompt, userId, webhook } from '../../request-fields';
import { TEXT_ASSIST_OPTIONS } from '../../tools';

export const request = z.object({
  userId,
  prompt,
  aspectRatio: aspectRatio.default('1:1'),
  textAssist: z
    .enum(TEXT_ASSIST_OPTIONS, { error: `must be one of ${TEXT_ASSIST_OPTIONS.join(', ')}` })
    .default('Auto'),
  outputFormat: outputFormat.optional(),
  outputQuality: outputQuality.optional(),
  webhook,
});

// Its entry in the type of every tool's request (ToolRequestSchemas, what the pages' bodies are typed by).
declare module '../../tool-requests' {
  interface ToolRequestSchemas {
    'text-lab': typeof request;
  }
}
