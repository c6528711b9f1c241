import { useState } from 'react';
import { ASPECT_RATIOS, TEXT_ASSIST_OPTIONS, type TextAssist } from '../../../../contract/tools';
import { ChoiceGroup, useAspectRatioField, usePromptField } from '../parts/fields';
import { promptAlt } from '../parts/prompt-alt';
import { useRunAgainSetting } from '../parts/run-again';
import { ToolWorkspace } from '../ToolWorkspace';
import { draftSetting, draftText, useRestoredDraft } from '../use-restored-draft';
import { useToolRunner } from '../use-tool-runner';
import { textLab } from './tool';

const TEXT_ASSIST = TEXT_ASSIST_OPTIONS.map((option) => ({ value: option, label: option }));

/** Route '/text-lab': its own lazily loaded chunk. A fixed price per request; Text Assist defaults to Auto. */
export function TextLabPage() {
  const runner = useToolRunner(textLab);
  const draft = useRestoredDraft(textLab.id);
  const {
    value: prompt,
    field: promptField,
    check: checkPrompt,
  } = usePromptField(
    'Prompt',
    'A retro concert poster that says "Summer Nights" in bold neon letters',
    draftText(draft, 'prompt'),
    runner.resumedPrompt,
  );
  const { value: aspectRatio, field: aspectRatioField } = useAspectRatioField(
    draft ? draftSetting(draft, 'aspectRatio', ASPECT_RATIOS, '1:1') : undefined,
  );
  // A draft kept on the way to /tokens first, else what "Run again" carries.
  const textAssistAgain = useRunAgainSetting(['textAssist'], TEXT_ASSIST_OPTIONS, 'Auto');
  const [textAssist, setTextAssist] = useState<TextAssist>(() =>
    draftSetting(draft, 'textAssist', TEXT_ASSIST_OPTIONS, textAssistAgain),
  );

  return (
    <ToolWorkspace
      runner={runner}
      action="Generate"
      request={{
        cost: runner.price,
        hasImage: false,
        body: () => ({ prompt, aspectRatio, textAssist }),
        invalid: checkPrompt,
        draft: () => ({ settings: { prompt, aspectRatio, textAssist } }),
      }}
      resultAlt={promptAlt('Text Lab design')}
    >
      {promptField}
      {aspectRatioField}
      <ChoiceGroup
        legend="Text Assist"
        name="text-assist"
        value={textAssist}
        options={TEXT_ASSIST}
        onChange={setTextAssist}
        hint="Text Assist expands your prompt before generating: Auto decides when, On always does, Off uses your words as written."
      />
    </ToolWorkspace>
  );
}
