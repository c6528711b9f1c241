import type { ReactNode } from 'react';
import { BATCH_PARAM, isBatchTool } from '../../../contract/batches';
import type { ImageToolId, ToolId } from '../../../contract/tools';
import { useSearchParams } from '../../lib/router';
import { BATCH_HINT, BatchPage } from './batch/BatchPage';
import { type PickedFile, useBatchFiles } from './batch/batch-files';
import { useRestoredBatch } from './batch/use-restored-batch';
import { carriedFileOptions } from './download-formats';
import { type ImageSize, readAsDataUrl } from './parts/ImageDropZone';
import { KeepLocationOption, useKeepLocation } from './parts/KeepLocationOption';
import { useRunAgainSettings } from './parts/run-again';
import { ToolWorkspace, useUpload } from './ToolWorkspace';
import { useRestoredDraft } from './use-restored-draft';
import { type ToolBody, useToolRunner } from './use-tool-runner';
import type { WebTool } from './web-tool';
import { SINGLE_IMAGE_HINT } from './workspace';

type Props<Id extends ToolId> = {
  tool: WebTool<Id>;
  /** The action button's label. */
  action: string;
  /** Body fields besides the image (the scale). */
  fields?: Omit<ToolBody<Id>, 'image'>;
  /** More inputs under the drop zone; a function is given the chosen image's size (null: none, or a batch). */
  options?: ReactNode | ((size: ImageSize | null) => ReactNode);
  /** The drop zone's hint (default: one PNG, JPG or WEBP image). */
  hint?: string;
  /** The result panel's title, from the body that produced the result (null before any). */
  resultTitle?: (sent: ToolBody<Id> | null) => string;
  /** Why this image cannot go out as it is, or null. */
  problem?: (size: ImageSize | null) => string | null;
  /** Tokens at which the button is off outright (Creative Upscaler: at 0). */
  disabledAtBalance?: number;
};

/**
 * A tool of one image in (sent as a data URL), one action, one result (Colorizer, Background Remover,
 * Fix a Face, Creative Upscaler, Image Upscaler, Image Analyzer). The action is off until there is an image.
 */
export function SingleImageTool<Id extends ToolId>({
  tool: webTool,
  action,
  fields: toolFields,
  options: toolOptions,
  hint = SINGLE_IMAGE_HINT,
  resultTitle,
  problem,
  disabledAtBalance,
}: Props<Id>) {
  const runner = useToolRunner(webTool);
  const again = useRunAgainSettings();
  // A tool that makes an image keeps the photo's GPS location only when the user says so.
  const [keepLocation, setKeepLocation] = useKeepLocation();
  const makesImage = webTool.result.kind === 'images';
  const draft = useRestoredDraft(webTool.id);
  // The format and quality a job was run with go out again ("Run again", or a draft back from /tokens).
  const carried = carriedFileOptions(webTool, draft ? draft.settings : again, toolFields ?? {});
  const fields = {
    ...toolFields,
    ...carried,
    ...(makesImage && keepLocation ? { keepLocation: true } : {}),
  } as Props<Id>['fields'];
  const upload = useUpload(runner, draft?.image ?? null);
  const optionsFor = (size: ImageSize | null) => {
    const own = typeof toolOptions === 'function' ? toolOptions(size) : toolOptions;
    return makesImage ? (
      <>
        {own}
        <KeepLocationOption keep={keepLocation} onChange={setKeepLocation} />
      </>
    ) : (
      own
    );
  };
  // Several images at once (or a batch in the URL) make the batch view; one keeps this page as it is.
  const batchable = isBatchTool(webTool.id);
  const batchFiles = useBatchFiles(webTool.id as ImageToolId);
  const [search] = useSearchParams();
  const { tool, job, balance, price } = runner;
  const { image } = upload;
  // Back from /tokens: the batch the page kept on the way there (2+ images: the batch view again; one:
  // this page with it). A batch in the URL shows that one; a newer draft of one image here stands.
  const readImage = (file: File, name: string) =>
    readAsDataUrl(file)
      .catch(() => null)
      .then((dataUrl) => (dataUrl?.startsWith('data:image/') ? { dataUrl, name, size: file.size } : null));
  useRestoredBatch(
    webTool.id,
    !batchable || search.has(BATCH_PARAM) ? 'leave' : draft?.image || draft?.imageDropped ? 'drop' : 'restore',
    (files) => {
      // Something chosen meanwhile stands.
      if (image || batchFiles.files.length > 0) return;
      const [only] = files;
      if (files.length === 1 && only) void readImage(only, only.name).then((read) => read && upload.onImage(read));
      else batchFiles.add(files);
    },
  );
  if (batchable && (search.has(BATCH_PARAM) || batchFiles.files.length > 1)) {
    // Back to one image: the single page with it (a file it cannot use leaves the page empty).
    const toSingle = ({ file, name, rejected }: PickedFile) => {
      const read = rejected ? Promise.resolve(null) : readImage(file, name);
      void read.then((picked) => {
        batchFiles.clear();
        upload.onImage(picked);
      });
    };
    return (
      <BatchPage
        runner={runner}
        files={batchFiles}
        fields={{ ...fields }}
        options={optionsFor(null)}
        problem={problem}
        onSingle={toSingle}
        onEmpty={() => {
          batchFiles.clear();
          upload.onImage(null);
        }}
      />
    );
  }
  const resultName = resultTitle?.(job.phase === 'done' ? job.request : null) ?? tool.workspace.resultTitle;
  // The checks run first: the body is only built with an image in hand. Its fields are the page's own
  // (typed by the contract); TypeScript cannot see that they and `image` make up the whole body.
  const body = () => ({ ...fields, image: image?.dataUrl ?? '' }) as unknown as ToolBody<Id>;

  return (
    <ToolWorkspace
      runner={runner}
      action={action}
      request={{
        cost: price,
        hasImage: image !== null,
        body,
        draft: () => ({ image: image ?? undefined, settings: fields }),
      }}
      // A free preview takes nothing: no balance switches it off.
      actionDisabled={!image || (price > 0 && balance !== null && balance === disabledAtBalance)}
      upload={{
        ...upload,
        label: 'Image',
        hint,
        problem: problem?.(upload.size) ?? null,
        several: batchable ? { onFiles: batchFiles.add, hint: BATCH_HINT } : undefined,
      }}
      resultTitle={resultName}
      resultAlt={() => (image ? `${resultName} of ${image.name}` : resultName)}
    >
      {optionsFor(upload.size)}
    </ToolWorkspace>
  );
}
