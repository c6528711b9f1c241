// Colorizer's request body (product-spec.md section 7).
import { z } from 'zod';
import { image, imageFile, userId, webhook } from '../../request-fields';

export const request = z.object({ userId, image, ...imageFile, webhook });

// Its entry in the type of every tool's request (ToolRequestSchemas, what the pages' bodies are typed by).
declare module '../../tool-requests' {
  interface ToolRequestSchemas {
    colorizer: typeof request;
  }
}
