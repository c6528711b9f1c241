import { useState } from 'react';
import { UPSCALE_MAX_INPUT } from '../../../../contract/tools';
import { ChoiceGroup } from '../parts/fields';
import { SingleImageTool } from '../SingleImageTool';
import { SINGLE_IMAGE_HINT } from '../workspace';

type Scale = keyof typeof UPSCALE_MAX_INPUT;

const SCALES: Scale[] = [2, 4, 6];
const SCALE_OPTIONS = SCALES.map((scale) => ({ value: scale, label: `${scale}x` }));

/** The largest input per scale, stated in the hint (the server refuses larger images before charging). */
export const UPSCALE_HINT = `${SINGLE_IMAGE_HINT} Largest input: ${SCALES.map(
  (scale) => `${UPSCALE_MAX_INPUT[scale].label} px for ${scale}x`,
).join(', ')}.`;

/** Route '/image-upscaler': its own lazily loaded chunk. 2x, 4x or 6x; the result is titled "Upscaled (Nx)". */
export function ImageUpscalerPage() {
  const [scale, setScale] = useState<Scale>(2);
  const limit = UPSCALE_MAX_INPUT[scale];
  return (
    <SingleImageTool
      toolId="image-upscaler"
      action="Upscale"
      fields={{ scale }}
      hint={UPSCALE_HINT}
      resultTitle={(sent) => `Upscaled (${sent?.scale ?? scale}x)`}
      problem={(size) =>
        size && size.width * size.height > limit.pixels
          ? `This image is ${size.width} x ${size.height} px: the largest input for ${scale}x is ${limit.label} px. Choose a smaller scale or image.`
          : null
      }
      options={<ChoiceGroup legend="Scale" name="scale" value={scale} options={SCALE_OPTIONS} onChange={setScale} />}
    />
  );
}
