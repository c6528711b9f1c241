import { ToolPage } from '../ToolPage';

/** Route 'image-upscaler': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function ImageUpscalerPage() {
  return <ToolPage toolId="image-upscaler" />;
}
