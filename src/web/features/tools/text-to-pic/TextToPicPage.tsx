import { useState } from 'react';
import { ASPECT_RATIOS, OUTPUT_QUALITY, QUALITIES, type Quality } from '../../../../contract/tools';
import { ChoiceGroup, useAspectRatioField, useImageCountField, usePromptField } from '../parts/fields';
import { promptAlt } from '../parts/prompt-alt';
import { useRunAgainSetting } from '../parts/run-again';
import { ToolWorkspace } from '../ToolWorkspace';
import { draftSetting, draftText, useRestoredDraft } from '../use-restored-draft';
import { type ToolBody, useToolRunner } from '../use-tool-runner';
import { textToPic } from './tool';

const QUALITY_LABELS: Record<Quality, string> = { low: 'Low', med: 'Med', high: 'High' };
const QUALITY_OPTIONS = QUALITIES.map((quality) => ({ value: quality, label: QUALITY_LABELS[quality] }));

/** Route '/text-to-pic': its own lazily loaded chunk. 1 token per image; a click on a result downloads it. */
export function TextToPicPage() {
  const runner = useToolRunner(textToPic);
  const draft = useRestoredDraft(textToPic.id);
  const {
    value: prompt,
    field: promptField,
    check: checkPrompt,
  } = usePromptField(
    'Prompt',
    'A lighthouse on a cliff at dusk, soft film grain',
    draftText(draft, 'prompt'),
    runner.resumedPrompt,
  );
  const { value: aspectRatio, field: aspectRatioField } = useAspectRatioField(
    draft ? draftSetting(draft, 'aspectRatio', ASPECT_RATIOS, '1:1') : undefined,
  );
  // Counts above what the balance pays for are off; a free preview takes nothing, so none is.
  const affordable = runner.balance === null || runner.price === 0 ? null : Math.floor(runner.balance / runner.price);
  const { value: count, field: countField } = useImageCountField(affordable);
  // A draft kept on the way to /tokens first, else what "Run again" carries.
  const qualityAgain = useRunAgainSetting(['quality'], QUALITIES, 'high');
  const [quality, setQuality] = useState<Quality>(() => draftSetting(draft, 'quality', QUALITIES, qualityAgain));
  const cost = runner.price * count;
  const body = (): ToolBody<'text-to-pic'> => ({
    prompt,
    aspectRatio,
    numOutputs: count,
    quality,
    goFast: true,
    outputFormat: 'webp',
    outputQuality: OUTPUT_QUALITY[quality],
  });

  return (
    <ToolWorkspace
      runner={runner}
      action="Generate"
      request={{
        cost,
        hasImage: false,
        body,
        invalid: checkPrompt,
        draft: () => ({ settings: { prompt, aspectRatio, quality } }),
      }}
      resultAlt={promptAlt('Generated image')}
    >
      {promptField}
      {aspectRatioField}
      {countField}
      <ChoiceGroup legend="Quality" name="quality" value={quality} options={QUALITY_OPTIONS} onChange={setQuality} />
    </ToolWorkspace>
  );
}
