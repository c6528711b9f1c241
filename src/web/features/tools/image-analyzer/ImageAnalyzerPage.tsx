import { ToolPage } from '../ToolPage';

/** Route 'image-analyzer': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function ImageAnalyzerPage() {
  return <ToolPage toolId="image-analyzer" />;
}
