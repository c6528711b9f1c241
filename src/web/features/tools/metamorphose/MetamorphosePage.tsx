import { METAMORPHOSE_SIZES } from '../../../../contract/tools';
import { SelectField, useAspectRatioField, usePromptField } from '../parts/fields';
import { promptAlt } from '../parts/prompt-alt';
import { limitedTo5mb, ToolWorkspace, useUpload } from '../ToolWorkspace';
import { stripDataUrlPrefix } from '../tool-api';
import { type ToolBody, useToolRunner } from '../use-tool-runner';
import { metamorphose } from './tool';

/** "number of images (only 1 offered); quality (only Standard offered)": output quality 33. */
const COUNT_OPTIONS = [{ value: 1, label: '1' }] as const;
const QUALITY_OPTIONS = [{ value: 33, label: 'Standard' }] as const;
const unchanged = () => {};

/** Route '/metamorphose': its own lazily loaded chunk. A reference face and a prompt; 9 tokens per image. */
export function MetamorphosePage() {
  const runner = useToolRunner(metamorphose);
  const upload = useUpload(runner);
  const {
    value: prompt,
    field: promptField,
    check: checkPrompt,
  } = usePromptField('Prompt', 'Me as an astronaut on the moon, cinematic lighting', '', runner.resumedPrompt);
  const { value: aspectRatio, field: aspectRatioField } = useAspectRatioField();
  const { image } = upload;
  const cost = runner.price;
  const body = (): ToolBody<'metamorphose'> => ({
    prompt,
    main_face_image: image ? stripDataUrlPrefix(image.dataUrl) : '',
    num_outputs: 1,
    output_quality: 33,
    ...METAMORPHOSE_SIZES[aspectRatio],
  });

  return (
    <ToolWorkspace
      runner={runner}
      action="Generate"
      request={{ cost, hasImage: image !== null, body, invalid: checkPrompt }}
      upload={limitedTo5mb(upload, 'Reference image')}
      resultAlt={promptAlt('Metamorphose portrait')}
    >
      {promptField}
      {aspectRatioField}
      <div className="pp-field-row">
        <SelectField label="Number of images" value={1} options={COUNT_OPTIONS} onChange={unchanged} />
        <SelectField label="Quality" value={33} options={QUALITY_OPTIONS} onChange={unchanged} />
      </div>
    </ToolWorkspace>
  );
}
