import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { imageByteLimit, imageLimitsHint, imageSizeProblem } from '../../../contract/input-limits';
import type { Analysis } from '../../../contract/tool-responses';
import type { ImageToolId, ToolId } from '../../../contract/tools';
import { sentImageRef } from '../../lib/creations/send-to';
import { useSearchParams } from '../../lib/router';
import { DESKTOP_QUERY, useMediaQuery } from '../../lib/use-media-query';
import { resultFormats } from './download-formats';
import { AnalysisResult } from './parts/AnalysisResult';
import { FreePreviewNotice, LowerPriceNotice } from './parts/FreePreviewNotice';
import { ActionButton } from './parts/fields';
import { ImageDropZone, type ImageSize, type PickedImage, type SeveralFiles } from './parts/ImageDropZone';
import { JobProgress } from './parts/JobProgress';
import { RefineAction } from './parts/RefineAction';
import { ImageResults, ResultPanel } from './parts/ResultPanel';
import { SaveAsRecipeLink } from './parts/SaveAsRecipeLink';
import { sendTargetsFrom } from './send-targets';
import { ToolPage } from './ToolPage';
import { accountProblem } from './tool-access';
import type { SubmitRequest, ToolBody, ToolRunner } from './use-tool-runner';
import { UPLOAD_5MB_HINT } from './workspace';

/** The name shown for an image another tool's result sent here. */
export const SENT_IMAGE_NAME = 'Result from another tool';
/** The name shown for the input of a job still running when the page opened (after a reload). */
export const RESUMED_IMAGE_NAME = 'Image of the job in progress';

/**
 * The page's image: a new one (or ×) drops the previous result and any call still out. It starts as
 * the draft kept on the way to /tokens (`restored`), or else the stored file another tool sent here
 * ("Send to ..."), whose reference goes out as the image.
 */
export function useUpload(
  { reset, resumedInput }: Pick<ToolRunner, 'reset' | 'resumedInput'>,
  restored: PickedImage | null = null,
) {
  const [search] = useSearchParams();
  const [image, setImage] = useState<PickedImage | null>(() => {
    if (restored) return restored;
    const sent = sentImageRef(search);
    return sent ? { dataUrl: sent, name: SENT_IMAGE_NAME, size: 0 } : null;
  });
  const [size, setSize] = useState<ImageSize | null>(null);
  // A job still running when the page opened shows its input again (the stored file, which a new run
  // may send as it is); an image already chosen stays.
  useEffect(() => {
    if (resumedInput) setImage((current) => current ?? { dataUrl: resumedInput, name: RESUMED_IMAGE_NAME, size: 0 });
  }, [resumedInput]);
  const onImage = useCallback(
    (next: PickedImage | null) => {
      setImage(next);
      reset();
    },
    [reset],
  );
  return { image, size, onImage, onMeasured: setSize };
}

/** Metamorphose and Background Swap: "reject files over 5 MB" (the workspace's limit for them); "hint says PNG, JPG and WEBP". */
export const limitedTo5mb = (upload: ReturnType<typeof useUpload>, label: string): Upload => ({
  ...upload,
  label,
  hint: UPLOAD_5MB_HINT,
});

type Upload = ReturnType<typeof useUpload> & {
  label: string;
  hint: string;
  /** Why this image cannot go out as it is (Image Upscaler: too many pixels for the scale), or null. */
  problem?: string | null;
  /** A batch tool: several files at once go to its batch view. */
  several?: SeveralFiles;
};

type Props<Id extends ToolId> = {
  runner: ToolRunner<Id>;
  /** The action button's label. */
  action: string;
  /** What a click asks for: its cost (shown on the button unless free), whether there is an image, the body. */
  request: SubmitRequest<Id>;
  /** Off for reasons of this page only (Creative Upscaler at a balance of 0...). */
  actionDisabled?: boolean;
  /** The page's drop zone, above the other inputs. */
  upload?: Upload;
  /** The result panel's title when it differs from the workspace's (Image Upscaler: "Upscaled (4x)"). */
  resultTitle?: string;
  /** Alt text of result image n, from the body that produced it. */
  resultAlt: (n: number, sent: ToolBody<Id>) => string;
  /** The other inputs, switched off together while the account may not use the tool or a job runs. */
  children?: ReactNode;
};

/**
 * A whole tool page: the frame (title, price, account and engine notices), the form (image, inputs,
 * the free-preview notice where the tool is given as one or the reason for a price below the list
 * price, priced action and its message line) and the result panel.
 */
export function ToolWorkspace<Id extends ToolId>({
  runner,
  action,
  request,
  actionDisabled = false,
  upload,
  resultTitle,
  resultAlt,
  children,
}: Props<Id>) {
  const { tool, job } = runner;
  const copy = tool.workspace;
  const titleId = useId();
  // While the session loads (access unknown) an image may already be chosen and settings changed:
  // only the action waits for it. A flagged account's lock and a running job switch the form off.
  const off = runner.busy || (runner.locked && runner.access !== 'unknown');
  const isDesktop = useMediaQuery(DESKTOP_QUERY);
  // The tool's own problem with the image first (an upscale's limit for its scale), then the limits
  // every upload has (pixels, shape), both as the server would refuse them: nothing is sent.
  const imageTool = tool.id as ImageToolId;
  // (A size of 0 is no measure: an image the browser has not decoded.)
  const measured = upload?.size?.width && upload.size.height ? upload.size : null;
  const problem = upload?.image
    ? (upload.problem ?? (measured ? imageSizeProblem(imageTool, measured.width, measured.height) : null))
    : null;
  // Metamorphose and Background Swap keep their controls on for a flagged account (section 6); the
  // form still says up front, where it is filled in, that the server will refuse it.
  const accountNote = tool.checksAccountFlags ? null : accountProblem(runner.access);
  const accountNoteId = useId();
  return (
    <ToolPage tool={tool}>
      <div className="pp-workspace">
        <form
          className="pp-panel pp-controls"
          aria-labelledby={titleId}
          onSubmit={(event) => {
            event.preventDefault();
            runner.submit(request);
          }}
        >
          <h2 id={titleId} className="pp-panel__title">
            {copy.inputTitle}
          </h2>
          {accountNote ? (
            <p className="pp-field__warning" id={accountNoteId} data-testid="form-account-note">
              {accountNote} Generating stays unavailable until then.
            </p>
          ) : null}
          {upload ? (
            <ImageDropZone
              label={upload.label}
              hint={upload.hint}
              limits={imageLimitsHint(imageTool)}
              image={upload.image}
              byteLimit={imageByteLimit(imageTool)}
              disabled={off}
              onImage={upload.onImage}
              onMeasured={upload.onMeasured}
              several={upload.several}
            />
          ) : null}
          {problem ? (
            <p className="pp-field__warning" role="status">
              {problem}
            </p>
          ) : null}
          {children ? (
            <fieldset className="pp-options" disabled={off}>
              {children}
            </fieldset>
          ) : null}
          {runner.freePreview ? (
            <FreePreviewNotice notice={runner.provider === 'local' ? tool.localPreviewNotice : undefined} />
          ) : tool.lowerPriceNote && runner.price < tool.cost ? (
            <LowerPriceNotice note={tool.lowerPriceNote} />
          ) : null}
          <ActionButton
            label={action}
            cost={request.cost}
            freePreview={runner.freePreview}
            busy={runner.busy}
            busyLabel={runner.busyLabel}
            disabled={runner.locked || actionDisabled || Boolean(problem)}
            message={runner.message}
            detail={runner.messageDetail}
            describedBy={accountNote ? accountNoteId : undefined}
          />
          {job.phase === 'running' && !isDesktop ? (
            // On a phone the result panel is below the form: the progress shows by the button too
            // (the panel's line is the one announced).
            <p className="pp-action__progress" aria-hidden="true">
              <JobProgress job={job} />
            </p>
          ) : null}
        </form>
        <ResultPanel
          title={resultTitle ?? copy.resultTitle}
          job={job}
          icon={copy.resultIcon}
          emptyText={copy.emptyText}
        >
          {job.phase !== 'done' ? null : tool.result.kind === 'analysis' ? (
            <AnalysisResult analysis={job.analysis ?? NO_ANALYSIS} />
          ) : (
            <>
              <ImageResults
                images={job.images}
                fileName={tool.result.fileName}
                alt={(n) => resultAlt(n, job.request)}
                clickToDownload={tool.result.clickToDownload}
                before={tool.result.compare ? (upload?.image?.dataUrl ?? job.before) : null}
                cutout={tool.result.compare === 'cutout'}
                // A free preview is a labelled placeholder: nothing to carry on to another tool.
                sendTargets={job.demo ? [] : sendTargetsFrom(tool.id)}
                formats={resultFormats(tool, job.request)}
              />
              {job.jobId && (job.before ?? upload?.image?.dataUrl) ? (
                <RefineAction
                  tool={tool}
                  jobId={job.jobId}
                  photoUrl={job.before ?? upload?.image?.dataUrl ?? ''}
                  onSaved={runner.showVersion}
                />
              ) : null}
              {job.demo ? null : (
                <SaveAsRecipeLink tool={tool.id} request={job.request as Record<string, unknown>} images={job.images} />
              )}
            </>
          )}
        </ResultPanel>
      </div>
    </ToolPage>
  );
}

const NO_ANALYSIS: Analysis = { keywords: [], colors: [] };
