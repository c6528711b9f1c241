import { SingleImageTool } from '../SingleImageTool';

/** Route '/background-remover': its own lazily loaded chunk. */
export function BackgroundRemoverPage() {
  return <SingleImageTool toolId="background-remover" action="Remove Background" />;
}
