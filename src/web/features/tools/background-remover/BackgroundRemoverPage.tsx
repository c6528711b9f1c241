import { SingleImageTool } from '../SingleImageTool';
import { backgroundRemover } from './tool';

/** Route '/background-remover': its own lazily loaded chunk. */
export function BackgroundRemoverPage() {
  return <SingleImageTool tool={backgroundRemover} action="Remove Background" />;
}
