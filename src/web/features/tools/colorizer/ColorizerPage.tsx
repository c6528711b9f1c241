import { SingleImageTool } from '../SingleImageTool';
import { colorizer } from './tool';

/** Route '/colorizer': its own lazily loaded chunk. */
export function ColorizerPage() {
  return <SingleImageTool tool={colorizer} action="Colorize" />;
}
