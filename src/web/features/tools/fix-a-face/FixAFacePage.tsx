import { SingleImageTool } from '../SingleImageTool';
import { upscaleHint, upscaleProblem } from '../upscale-limits';
import { fixAFace } from './tool';

const HINT = upscaleHint([2]);

/** Route '/face-fixer': its own lazily loaded chunk. The spec's scale is always 2: the result is twice the size. */
export function FixAFacePage() {
  return (
    <SingleImageTool
      tool={fixAFace}
      action="Fix Face"
      fields={{ scale: 2 }}
      hint={HINT}
      problem={(size) => upscaleProblem(size, 2, 'Choose a smaller image.')}
    />
  );
}
