import { useState } from 'react';
import {
  PRINT_DPI,
  PRINT_SIZE_IDS,
  PRINT_SIZES,
  type PrintSizeId,
  printMeasures,
  printPixels,
} from '../../../../contract/print-sizes';
import {
  MAX_RESULT,
  planUpscale,
  type SizedTarget,
  type UpscalePlan,
} from '../../../../contract/tools/image-upscaler/target-size';
import { NumberField } from '../../../components/NumberField';
import { ChoiceGroup, SelectField } from '../parts/fields';
import type { ImageSize } from '../parts/ImageDropZone';
import { useRunAgainSetting, useRunAgainSettings } from '../parts/run-again';
import { SingleImageTool } from '../SingleImageTool';
import { type UpscaleScale, upscaleHint, upscaleProblem } from '../upscale-limits';
import { draftSetting, useRestoredDraft } from '../use-restored-draft';
import { imageUpscaler } from './tool';

const SCALES: UpscaleScale[] = [2, 4, 6];
const SCALE_OPTIONS = SCALES.map((scale) => ({ value: scale, label: `${scale}x` }));

const UPSCALE_HINT = upscaleHint(SCALES);

type Mode = 'scale' | 'size' | 'print';
const MODE_OPTIONS = [
  { value: 'scale' as const, label: 'Scale' },
  { value: 'size' as const, label: 'Size' },
  { value: 'print' as const, label: 'Print' },
];
type Side = 'width' | 'height';
const SIDE_OPTIONS = [
  { value: 'width' as const, label: 'Width' },
  { value: 'height' as const, label: 'Height' },
];
const PRINT_OPTIONS = PRINT_SIZE_IDS.map((id) => ({ value: id, label: PRINT_SIZES[id].label }));
const PRINT_HINT =
  'Portrait or landscape as the photo is. The photo covers the page: what overflows its long or short side is cropped evenly. The DPI is written into the file.';

/** A whole number typed in a field, or null. */
const wholeNumber = (text: string) => (/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);

/**
 * Route '/image-upscaler': its own lazily loaded chunk. 2x, 4x or 6x, or to a size (a width or height
 * in pixels, or a print size at a DPI: decisions 081 and 084); the result is titled "Upscaled (Nx)" or by its size.
 */
export function ImageUpscalerPage() {
  const draft = useRestoredDraft(imageUpscaler.id);
  // A draft kept on the way to /tokens first, else what "Run again" carries.
  const runAgain = useRunAgainSettings();
  const again: Record<string, unknown> | null = draft?.settings ?? runAgain;
  const scaleAgain = useRunAgainSetting(['scale'], SCALES, 2);
  const [scale, setScale] = useState<UpscaleScale>(() => draftSetting(draft, 'scale', SCALES, scaleAgain));
  const [mode, setMode] = useState<Mode>(() =>
    again?.printSize !== undefined ? 'print' : again?.targetWidth || again?.targetHeight ? 'size' : 'scale',
  );
  const [side, setSide] = useState<Side>(() => (again?.targetHeight ? 'height' : 'width'));
  const [pixels, setPixels] = useState(() => String(again?.targetWidth ?? again?.targetHeight ?? 4000));
  const [printSize, setPrintSize] = useState<PrintSizeId>(() =>
    PRINT_SIZE_IDS.includes(again?.printSize as PrintSizeId) ? (again?.printSize as PrintSizeId) : 'a4',
  );
  const [dpi, setDpi] = useState(() => String(again?.dpi ?? PRINT_DPI.default));

  const sidePixels = wholeNumber(pixels);
  const dpiValue = wholeNumber(dpi);
  const sideOk = sidePixels !== null && sidePixels >= 1 && sidePixels <= MAX_RESULT.side;
  const dpiOk = dpiValue !== null && dpiValue >= PRINT_DPI.min && dpiValue <= PRINT_DPI.max;
  const target: SizedTarget | null =
    mode === 'size' && sideOk
      ? side === 'width'
        ? { kind: 'width', width: sidePixels }
        : { kind: 'height', height: sidePixels }
      : mode === 'print' && dpiOk
        ? { kind: 'print', printSize, dpi: dpiValue }
        : null;
  const fields =
    mode === 'scale'
      ? { scale }
      : mode === 'size'
        ? side === 'width'
          ? { targetWidth: sidePixels ?? 0 }
          : { targetHeight: sidePixels ?? 0 }
        : { printSize, dpi: dpiValue ?? 0 };

  const problem = (size: ImageSize | null) => {
    if (mode === 'scale') return upscaleProblem(size, scale, 'Choose a smaller scale or image.');
    if (mode === 'size' && !sideOk) return `Enter a ${side} from 1 to ${MAX_RESULT.side} px.`;
    if (mode === 'print' && !dpiOk) return `Enter a DPI from ${PRINT_DPI.min} to ${PRINT_DPI.max}.`;
    if (!size?.width || !size.height || !target) return null;
    const planned = planUpscale(size, target);
    return planned.ok ? null : planned.message;
  };

  const summary = (size: ImageSize | null) => {
    if (mode === 'scale' || !target) return null;
    const printName = target.kind === 'print' ? `${PRINT_SIZES[target.printSize].label} at ${target.dpi} DPI` : '';
    if (!size?.width || !size.height) {
      if (target.kind !== 'print')
        return `The ${target.kind === 'width' ? 'height' : 'width'} follows the photo’s shape.`;
      const { short, long } = printPixels(target.printSize, target.dpi);
      return `${printName}: ${short} x ${long} px, ${printMeasures(target.printSize, false)}, turned as the photo is.`;
    }
    const planned = planUpscale(size, target);
    if (!planned.ok) {
      return planned.reason === 'too-small' && target.kind === 'print'
        ? `Too small for ${printName} within 6x: see the note under the image.`
        : null;
    }
    const { result, cropped } = planned.plan;
    const pixelsLine = `Result: ${result.width} x ${result.height} px`;
    const how = `${howMade(planned.plan)}${cropped ? `, a little cropped at the ${cropped}` : ''}.`;
    // A resize with no model run costs what an upscale does (decision 084): said before the run.
    const price = planned.plan.scale === null ? ' Priced as one upscale.' : '';
    return target.kind === 'print'
      ? `${pixelsLine}, ${printMeasures(target.printSize, result.width > result.height)} at ${target.dpi} DPI. Enough pixels for ${printName}: ${how}${price}`
      : `${pixelsLine}: ${how}${price}`;
  };

  const options = (size: ImageSize | null) => {
    const said = summary(size);
    return (
      <>
        <ChoiceGroup legend="Upscale to" name="upscale-mode" value={mode} options={MODE_OPTIONS} onChange={setMode} />
        {mode === 'scale' ? (
          <ChoiceGroup legend="Scale" name="scale" value={scale} options={SCALE_OPTIONS} onChange={setScale} />
        ) : null}
        {mode === 'size' ? (
          <>
            <ChoiceGroup legend="Side" name="upscale-side" value={side} options={SIDE_OPTIONS} onChange={setSide} />
            <NumberField
              label={side === 'width' ? 'Width (px)' : 'Height (px)'}
              value={pixels}
              min={1}
              max={MAX_RESULT.side}
              onChange={setPixels}
            />
          </>
        ) : null}
        {mode === 'print' ? (
          <>
            <SelectField
              label="Print size"
              value={printSize}
              options={PRINT_OPTIONS}
              onChange={setPrintSize}
              hint={PRINT_HINT}
            />
            <NumberField label="DPI" value={dpi} min={PRINT_DPI.min} max={PRINT_DPI.max} onChange={setDpi} />
          </>
        ) : null}
        <p className="pp-field__hint" aria-live="polite" data-testid="upscale-summary">
          {said ?? ''}
        </p>
      </>
    );
  };

  return (
    <SingleImageTool
      tool={imageUpscaler}
      action="Upscale"
      fields={fields}
      // A size or a print takes any photo the server does (one past a scale's limit is made smaller for it).
      hint={mode === 'scale' ? UPSCALE_HINT : undefined}
      resultTitle={(sent) => titleOf(sent ?? fields)}
      problem={problem}
      options={options}
    />
  );
}

/**
 * What the run does, said before it (decision 084): "resized, no upscale needed", "2x, then resized",
 * or, for a photo past the scale's input limit, "reduced to 1275 x 1650 px, 2x, then resized".
 */
function howMade({ scale, modelInput }: UpscalePlan): string {
  if (scale === null) return 'resized, no upscale needed';
  const first = modelInput ? `reduced to ${modelInput.size.width} x ${modelInput.size.height} px, ` : '';
  return `${first}${scale}x, then resized`;
}

/** The result's title from the body that made it: "Upscaled (4x)", "Upscaled to 3000 px wide", "Upscaled for A4 at 300 DPI". */
function titleOf(body: {
  scale?: number;
  targetWidth?: number;
  targetHeight?: number;
  printSize?: string;
  dpi?: number;
}) {
  if (body.printSize && body.printSize in PRINT_SIZES) {
    return `Upscaled for ${PRINT_SIZES[body.printSize as PrintSizeId].label} at ${body.dpi ?? PRINT_DPI.default} DPI`;
  }
  if (body.targetWidth) return `Upscaled to ${body.targetWidth} px wide`;
  if (body.targetHeight) return `Upscaled to ${body.targetHeight} px high`;
  return `Upscaled (${body.scale ?? 2}x)`;
}
