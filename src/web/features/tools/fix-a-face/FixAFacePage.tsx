import { ToolPage } from '../ToolPage';

/** Route 'fix-a-face': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function FixAFacePage() {
  return <ToolPage toolId="fix-a-face" />;
}
