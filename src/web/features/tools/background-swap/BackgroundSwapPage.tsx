import { ToolPage } from '../ToolPage';

/** Route 'background-swap': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function BackgroundSwapPage() {
  return <ToolPage toolId="background-swap" />;
}
