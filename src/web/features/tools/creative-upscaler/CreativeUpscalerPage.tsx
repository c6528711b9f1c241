import { ToolPage } from '../ToolPage';

/** Route 'creative-upscaler': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function CreativeUpscalerPage() {
  return <ToolPage toolId="creative-upscaler" />;
}
