// Creative Upscaler's request body (product-spec.md section 7): 2x, the only scale it takes.
import { z } from 'zod';
import { image, imageFile, literal, userId, webhook } from '../../request-fields';

export const request = z.object({ userId, image, scale: literal(2).default(2), ...imageFile, webhook });

// Its entry in the type of every tool's request (ToolRequestSchemas, what the pages' bodies are typed by).
declare module '../../tool-requests' {
  interface ToolRequestSchemas {
    'creative-upscaler': typeof request;
  }
}
