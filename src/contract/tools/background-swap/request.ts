// Background Swap's request body (product-spec.md section 7).
import { z } from 'zod';
import { image, imageCount, imageFile, prompt, userId, webhook } from '../../request-fields';

export const request = z.object({ userId, prompt, image, num_outputs: imageCount.default(1), ...imageFile, webhook });

// Its entry in the type of every tool's request (ToolRequestSchemas, what the pages' bodies are typed by).
declare module '../../tool-requests' {
  interface ToolRequestSchemas {
    'background-swap': typeof request;
  }
}
