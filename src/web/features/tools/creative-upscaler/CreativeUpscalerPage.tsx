import { SingleImageTool } from '../SingleImageTool';
import { upscaleHint, upscaleProblem } from '../upscale-limits';
import { creativeUpscaler } from './tool';

const HINT = upscaleHint([2]);

/** Route '/creative-upscale': its own lazily loaded chunk. Scale always 2; the button is off at a balance of 0. */
export function CreativeUpscalerPage() {
  return (
    <SingleImageTool
      tool={creativeUpscaler}
      action="Creative Upscale"
      fields={{ scale: 2 }}
      disabledAtBalance={0}
      hint={HINT}
      problem={(size) => upscaleProblem(size, 2, 'Choose a smaller image.')}
    />
  );
}
