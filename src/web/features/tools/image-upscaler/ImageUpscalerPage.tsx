import { useState } from 'react';
import { ChoiceGroup } from '../parts/fields';
import { useRunAgainSetting } from '../parts/run-again';
import { SingleImageTool } from '../SingleImageTool';
import { type UpscaleScale, upscaleHint, upscaleProblem } from '../upscale-limits';
import { draftSetting, useRestoredDraft } from '../use-restored-draft';
import { imageUpscaler } from './tool';

const SCALES: UpscaleScale[] = [2, 4, 6];
const SCALE_OPTIONS = SCALES.map((scale) => ({ value: scale, label: `${scale}x` }));

const UPSCALE_HINT = upscaleHint(SCALES);

/** Route '/image-upscaler': its own lazily loaded chunk. 2x, 4x or 6x; the result is titled "Upscaled (Nx)". */
export function ImageUpscalerPage() {
  const draft = useRestoredDraft(imageUpscaler.id);
  // A draft kept on the way to /tokens first, else what "Run again" carries.
  const scaleAgain = useRunAgainSetting(['scale'], SCALES, 2);
  const [scale, setScale] = useState<UpscaleScale>(() => draftSetting(draft, 'scale', SCALES, scaleAgain));
  return (
    <SingleImageTool
      tool={imageUpscaler}
      action="Upscale"
      fields={{ scale }}
      hint={UPSCALE_HINT}
      resultTitle={(sent) => `Upscaled (${sent?.scale ?? scale}x)`}
      problem={(size) => upscaleProblem(size, scale, 'Choose a smaller scale or image.')}
      options={<ChoiceGroup legend="Scale" name="scale" value={scale} options={SCALE_OPTIONS} onChange={setScale} />}
    />
  );
}
