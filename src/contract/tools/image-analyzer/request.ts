// Image Analyzer's request body (product-spec.md section 7): its result is an analysis, not a file.
import { z } from 'zod';
import { image, userId, webhook } from '../../request-fields';

export const request = z.object({ userId, image, webhook });

// Its entry in the type of every tool's request (ToolRequestSchemas, what the pages' bodies are typed by).
declare module '../../tool-requests' {
  interface ToolRequestSchemas {
    'image-analyzer': typeof request;
  }
}
