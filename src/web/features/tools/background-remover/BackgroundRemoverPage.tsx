import { useState } from 'react';
import { CUT_OUT_PRESETS } from '../../../../contract/output-files';
import { SelectField } from '../parts/fields';
import { useRunAgainSettings } from '../parts/run-again';
import { SingleImageTool } from '../SingleImageTool';
import { useRestoredDraft } from '../use-restored-draft';
import { presetById, presetOf } from './finish-presets';
import { backgroundRemover } from './tool';

const PRESET_OPTIONS = CUT_OUT_PRESETS.map(({ id, label }) => ({ value: id, label }));

/**
 * Route '/background-remover': its own lazily loaded chunk. The "Finish" preset's fields (background,
 * crop, size, shadow) go out with the image, a batch's images included; the plain one sends none.
 */
export function BackgroundRemoverPage() {
  const draft = useRestoredDraft(backgroundRemover.id);
  const again = useRunAgainSettings();
  // A draft kept on the way to /tokens first (its settings are the fields sent), else what "Run again" carries.
  const [presetId, setPresetId] = useState(() => presetOf(draft ? draft.settings : again).id);
  const preset = presetById(presetId);
  return (
    <SingleImageTool
      tool={backgroundRemover}
      action="Remove Background"
      fields={preset.finish}
      options={
        <SelectField
          label="Finish"
          value={presetId}
          options={PRESET_OPTIONS}
          onChange={setPresetId}
          hint={preset.hint}
        />
      }
    />
  );
}
