import { ToolPage } from '../ToolPage';

/** Route 'text-lab': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function TextLabPage() {
  return <ToolPage toolId="text-lab" />;
}
