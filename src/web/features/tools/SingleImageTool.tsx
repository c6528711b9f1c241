import type { ReactNode } from 'react';
import type { ToolId } from '../../../contract/tools';
import type { ImageSize } from './parts/ImageDropZone';
import { ToolWorkspace, useUpload } from './ToolWorkspace';
import { useToolRunner } from './use-tool-runner';
import { SINGLE_IMAGE_HINT, WORKSPACES } from './workspace';

export type SingleImageToolId = Exclude<ToolId, 'text-to-pic' | 'metamorphose' | 'text-lab' | 'background-swap'>;

type Props = {
  toolId: SingleImageToolId;
  /** The action button's label. */
  action: string;
  /** Body fields besides the image (the scale). */
  fields?: Record<string, unknown>;
  /** More inputs under the drop zone. */
  options?: ReactNode;
  /** The drop zone's hint (default: one PNG, JPG or WEBP image). */
  hint?: string;
  /** The result panel's title, from the body that produced the result (null before any). */
  resultTitle?: (sent: Record<string, unknown> | null) => string;
  /** Why this image cannot go out as it is, or null. */
  problem?: (size: ImageSize | null) => string | null;
  /** Tokens at which the button is off outright (Creative Upscaler: at 0). */
  disabledAtBalance?: number;
};

/**
 * Colorizer, Background Remover, Fix a Face, Creative Upscaler, Image Upscaler and Image Analyzer: one
 * image in (sent as a data URL), one action, one result. The action is off until there is an image.
 */
export function SingleImageTool({
  toolId,
  action,
  fields,
  options,
  hint = SINGLE_IMAGE_HINT,
  resultTitle,
  problem,
  disabledAtBalance,
}: Props) {
  const runner = useToolRunner(toolId);
  const upload = useUpload(runner);
  const { tool, job, balance } = runner;
  const { image } = upload;
  const resultName = resultTitle?.(job.phase === 'done' ? job.request : null) ?? WORKSPACES[toolId].resultTitle;

  return (
    <ToolWorkspace
      runner={runner}
      action={action}
      request={{ cost: tool.cost, hasImage: image !== null, body: () => ({ ...fields, image: image?.dataUrl }) }}
      actionDisabled={!image || (balance !== null && balance === disabledAtBalance)}
      upload={{ ...upload, label: 'Image', hint, problem: problem?.(upload.size) ?? null }}
      resultTitle={resultName}
      resultAlt={() => (image ? `${resultName} of ${image.name}` : resultName)}
    >
      {options}
    </ToolWorkspace>
  );
}
