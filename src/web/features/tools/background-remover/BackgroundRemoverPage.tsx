import { useState } from 'react';
import { BLUR_STRENGTH, CUT_OUT_MODES, CUT_OUT_PRESETS, type CutOutMode } from '../../../../contract/output-files';
import { LabelledField } from '../../../components/LabelledField';
import { ChoiceGroup, SelectField } from '../parts/fields';
import { useRunAgainSettings } from '../parts/run-again';
import { SingleImageTool } from '../SingleImageTool';
import { useRestoredDraft } from '../use-restored-draft';
import { presetById, presetOf } from './finish-presets';
import { backgroundRemover } from './tool';

const PRESET_OPTIONS = CUT_OUT_PRESETS.map(({ id, label }) => ({ value: id, label }));

/** The modes (issue 58) as the page offers them, each with the sentence under the choice. */
const MODE_CHOICES: Record<CutOutMode, { label: string; hint: string }> = {
  cutout: { label: 'Cut-out', hint: 'The subject on a transparent background (or finished for a shop).' },
  blur: { label: 'Blur', hint: 'The whole photo, its background blurred behind the sharp subject.' },
  mask: { label: 'Mask', hint: 'The matte alone: the subject white on black, a greyscale PNG for your editor.' },
};
const MODE_OPTIONS = CUT_OUT_MODES.map((mode) => ({ value: mode, label: MODE_CHOICES[mode].label }));

const modeOf = (settings: Record<string, unknown> | null | undefined): CutOutMode =>
  CUT_OUT_MODES.find((mode) => mode === settings?.mode) ?? 'cutout';
const strengthOf = (settings: Record<string, unknown> | null | undefined): number =>
  typeof settings?.blurStrength === 'number' ? settings.blurStrength : BLUR_STRENGTH.default;

/** The blur's strength as a slider, its value said beside its label. */
function BlurStrengthField({ value, onChange }: { value: number; onChange: (value: number) => void }) {
  return (
    <LabelledField label={`Blur strength: ${value}`}>
      {(id) => (
        <input
          id={id}
          type="range"
          className="pp-range"
          min={BLUR_STRENGTH.min}
          max={BLUR_STRENGTH.max}
          value={value}
          onChange={(event) => onChange(Number(event.target.value))}
        />
      )}
    </LabelledField>
  );
}

/**
 * Route '/background-remover': its own lazily loaded chunk. The "Finish" preset's fields (background,
 * crop, size, shadow) go out with the image, a batch's images included; the plain one sends none.
 */
export function BackgroundRemoverPage() {
  const draft = useRestoredDraft(backgroundRemover.id);
  const again = useRunAgainSettings();
  // A draft kept on the way to /tokens first (its settings are the fields sent), else what "Run again" carries.
  const settings = draft ? draft.settings : again;
  const [presetId, setPresetId] = useState(() => presetOf(settings).id);
  const [mode, setMode] = useState(() => modeOf(settings));
  const [blurStrength, setBlurStrength] = useState(() => strengthOf(settings));
  const preset = presetById(presetId);
  // Only the chosen mode's fields go out: the server refuses a cut-out's finishing with a blur or a mask.
  const fields = mode === 'cutout' ? preset.finish : mode === 'blur' ? { mode, blurStrength } : { mode };
  return (
    <SingleImageTool
      tool={backgroundRemover}
      action="Remove Background"
      fields={fields}
      options={
        <>
          <ChoiceGroup
            legend="Result"
            name="background-mode"
            value={mode}
            options={MODE_OPTIONS}
            onChange={setMode}
            hint={MODE_CHOICES[mode].hint}
          />
          {mode === 'cutout' ? (
            <SelectField
              label="Finish"
              value={presetId}
              options={PRESET_OPTIONS}
              onChange={setPresetId}
              hint={preset.hint}
            />
          ) : null}
          {mode === 'blur' ? <BlurStrengthField value={blurStrength} onChange={setBlurStrength} /> : null}
        </>
      }
    />
  );
}
