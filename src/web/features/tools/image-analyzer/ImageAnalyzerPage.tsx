import { SingleImageTool } from '../SingleImageTool';

/** Route '/image-analyzer': its own lazily loaded chunk. Shows keywords and colors instead of a download. */
export function ImageAnalyzerPage() {
  return <SingleImageTool toolId="image-analyzer" action="Analyze Image" />;
}
