import { ToolPage } from '../ToolPage';

/** Route 'metamorphose': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function MetamorphosePage() {
  return <ToolPage toolId="metamorphose" />;
}
