// Metamorphose's request body (product-spec.md section 7).
import { z } from 'zod';
import { image, imageFile, literal, prompt, userId, webhook } from '../../request-fields';
import { METAMORPHOSE_SIZES } from '../../tools';

/**
 * Width and height: one of METAMORPHOSE_SIZES, the two together (its server module refuses any other
 * pair). Validated as whole numbers here; the OpenAPI document says the values each may take.
 */
const SIZES = Object.values(METAMORPHOSE_SIZES);
const PAIRS = SIZES.map(({ width, height }) => `${width}x${height}`).join(', ');
const side = (name: 'width' | 'height') =>
  z
    .number({ error: 'must be a number' })
    .int()
    .default(1024)
    .meta({
      enum: [...new Set(SIZES.map((size) => size[name]))],
      description: `With ${name === 'width' ? 'height' : 'width'}, one of ${PAIRS}.`,
    });

export const request = z.object({
  userId,
  prompt,
  main_face_image: image,
  num_outputs: literal(1).default(1),
  output_quality: literal(33).default(33),
  width: side('width'),
  height: side('height'),
  ...imageFile,
  webhook,
});

// Its entry in the type of every tool's request (ToolRequestSchemas, what the pages' bodies are typed by).
declare module '../../tool-requests' {
  interface ToolRequestSchemas {
    metamorphose: typeof request;
  }
}
