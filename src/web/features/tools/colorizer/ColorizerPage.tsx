import { SingleImageTool } from '../SingleImageTool';

/** Route '/colorizer': its own lazily loaded chunk. */
export function ColorizerPage() {
  return <SingleImageTool toolId="colorizer" action="Colorize" />;
}
