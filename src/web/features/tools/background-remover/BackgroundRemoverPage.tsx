import { ToolPage } from '../ToolPage';

/** Route 'background-remover': its own lazily loaded chunk. The tool's controls replace the shell's workspace later. */
export function BackgroundRemoverPage() {
  return <ToolPage toolId="background-remover" />;
}
