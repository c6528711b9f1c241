import { useImageCountField, usePromptField } from '../parts/fields';
import { promptAlt } from '../parts/prompt-alt';
import { limitedTo5mb, ToolWorkspace, useUpload } from '../ToolWorkspace';
import { stripDataUrlPrefix } from '../tool-api';
import { useToolRunner } from '../use-tool-runner';
import { backgroundSwap } from './tool';

/** Route '/background-swap': its own lazily loaded chunk. 25 tokens per image (the spec's price), 1 to 4 images. */
export function BackgroundSwapPage() {
  const runner = useToolRunner(backgroundSwap);
  const upload = useUpload(runner);
  const {
    value: prompt,
    field: promptField,
    check: checkPrompt,
  } = usePromptField(
    'New Background Description',
    'A sunlit marble terrace overlooking the sea',
    '',
    runner.resumedPrompt,
  );
  const { value: count, field: countField } = useImageCountField();
  const { image } = upload;
  const cost = runner.price * count;
  const body = () => ({ prompt, image: image ? stripDataUrlPrefix(image.dataUrl) : '', num_outputs: count });

  return (
    <ToolWorkspace
      runner={runner}
      action="Generate"
      request={{ cost, hasImage: image !== null, body, invalid: checkPrompt }}
      upload={limitedTo5mb(upload, 'Image')}
      resultAlt={promptAlt('New background')}
    >
      {promptField}
      {countField}
    </ToolWorkspace>
  );
}
