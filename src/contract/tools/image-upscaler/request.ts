// Image Upscaler's request body (product-spec.md section 7): a scale, or a size to reach (issue 58
// item 4, decisions 081 and 084: exactly one of scale, targetWidth, targetHeight and printSize; target-size.ts).
import { z } from 'zod';
import { PRINT_DPI, PRINT_SIZE_IDS } from '../../print-sizes';
import { image, imageFile, literal, userId, webhook } from '../../request-fields';
import { MAX_RESULT } from './target-size';

const targetSide = z
  .number({ error: 'must be a number' })
  .int('must be a whole number')
  .min(1, `must be from 1 to ${MAX_RESULT.side}`)
  .max(MAX_RESULT.side, `must be from 1 to ${MAX_RESULT.side}`);

export const request = z.object({
  userId,
  image,
  scale: z
    .union([literal(2), literal(4), literal(6)], { error: 'must be 2, 4 or 6' })
    .optional()
    .describe('Enlarge 2, 4 or 6 times. Give exactly one of scale, targetWidth, targetHeight and printSize.'),
  targetWidth: targetSide
    .optional()
    .describe(
      'The result this many pixels wide, its height from the photo’s aspect: the model runs at the smallest of 2x, 4x and 6x that reaches it (on the photo made smaller first when it is past that scale’s input limit), then Lanczos makes the width exact; a photo that has the pixels already is only resized, no model run, for the same price. At most 16.8 megapixels.',
    ),
  targetHeight: targetSide
    .optional()
    .describe('The result this many pixels high, its width from the photo’s aspect (as targetWidth).'),
  printSize: z
    .enum(PRINT_SIZE_IDS, { error: `must be one of ${PRINT_SIZE_IDS.join(', ')}` })
    .optional()
    .describe(
      'The result at exactly a print size’s pixels at `dpi`, portrait or landscape as the photo is (a square photo: portrait): the photo covers the page and what overflows its long or short side is cropped evenly. Made as targetWidth is (a photo that has the pixels is only resized). The DPI is written into the file (JPEG JFIF and EXIF, PNG pHYs, WebP and AVIF EXIF).',
    ),
  dpi: z
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(PRINT_DPI.min, `must be from ${PRINT_DPI.min} to ${PRINT_DPI.max}`)
    .max(PRINT_DPI.max, `must be from ${PRINT_DPI.min} to ${PRINT_DPI.max}`)
    .optional()
    .describe(`Dots per inch for printSize (default ${PRINT_DPI.default}); only with printSize.`),
  ...imageFile,
  webhook,
});

// Its entry in the type of every tool's request (ToolRequestSchemas, what the pages' bodies are typed by).
declare module '../../tool-requests' {
  interface ToolRequestSchemas {
    'image-upscaler': typeof request;
  }
}
