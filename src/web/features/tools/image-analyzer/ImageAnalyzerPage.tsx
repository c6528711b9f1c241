import { SingleImageTool } from '../SingleImageTool';
import { imageAnalyzer } from './tool';

/** Route '/image-analyzer': its own lazily loaded chunk. Shows keywords and colors instead of a download. */
export function ImageAnalyzerPage() {
  return <SingleImageTool tool={imageAnalyzer} action="Analyze Image" />;
}
