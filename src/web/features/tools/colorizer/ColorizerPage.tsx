import { ToolPage } from '../ToolPage';

/** Route 'colorizer': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function ColorizerPage() {
  return <ToolPage toolId="colorizer" />;
}
