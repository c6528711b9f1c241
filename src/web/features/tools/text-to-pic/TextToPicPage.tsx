import { ToolPage } from '../ToolPage';

/** Route 'text-to-pic': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function TextToPicPage() {
  return <ToolPage toolId="text-to-pic" />;
}
