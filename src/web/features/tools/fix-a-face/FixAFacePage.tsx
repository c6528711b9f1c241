import { SingleImageTool } from '../SingleImageTool';

/** Route '/face-fixer': its own lazily loaded chunk. The spec's scale is always 2. */
export function FixAFacePage() {
  return <SingleImageTool toolId="fix-a-face" action="Fix Face" fields={{ scale: 2 }} />;
}
