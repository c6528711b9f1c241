import { SingleImageTool } from '../SingleImageTool';

/** Route '/creative-upscale': its own lazily loaded chunk. Scale always 2; the button is off at a balance of 0. */
export function CreativeUpscalerPage() {
  return (
    <SingleImageTool toolId="creative-upscaler" action="Creative Upscale" fields={{ scale: 2 }} disabledAtBalance={0} />
  );
}
