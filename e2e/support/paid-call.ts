// A tool call that costs real tokens in a server process, quickly: the local engine's Image
// Upscaler (1 token) on a tiny upload. The demo's tools are free previews (decision 020), so tests
// about money call this instead of a demo tool.
import sharp from 'sharp';

/** Routes the upscaler to the local engine whatever INFERENCE_PROVIDER says (merge into a server's env). */
export const PAID_TOOL_ENV = { INFERENCE_TOOLS: 'image-upscaler=local' };

const tinyPng = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#6c5ce7' } })
  .png()
  .toBuffer();

/** The API path and a body of a one-token call. */
export const PAID_CALL = {
  path: '/api/upscale-image',
  body: { image: `data:image/png;base64,${tinyPng.toString('base64')}`, scale: 2 },
} as const;
