import './batch.css';
import { type ReactNode, useEffect, useRef } from 'react';
import { BATCH_PARAM, MAX_BATCH_IMAGES } from '../../../../contract/batches';
import { useSearchParams } from '../../../lib/router';
import type { ImageSize } from '../parts/ImageDropZone';
import { ToolPage } from '../ToolPage';
import type { ToolRunner } from '../use-tool-runner';
import { BatchPicker } from './BatchPicker';
import { BatchProgress } from './BatchProgress';
import type { BatchFiles, PickedFile } from './batch-files';
import { useBatchRun } from './use-batch-run';

/** The line under a batch tool's drop zone: several images at once make a batch. */
export const BATCH_HINT = `Or choose up to ${MAX_BATCH_IMAGES} images at once to run them as a batch.`;

type Props = {
  runner: ToolRunner;
  files: BatchFiles;
  fields: Record<string, unknown>;
  options?: ReactNode;
  problem?: (size: ImageSize | null) => string | null;
  /** Down to one image: the single view with it. */
  onSingle: (file: PickedFile) => void;
  /** "New batch": the page as it opens, empty. */
  onEmpty: () => void;
};

/**
 * A batch tool's page with several images (or a batch in its URL): the images and what running
 * them costs, then the batch as it runs. The page's frame (title, price, account notices) stays.
 */
export function BatchPage({ runner, files, fields, options, problem, onSingle, onEmpty }: Props) {
  const run = useBatchRun(runner.tool);
  const [, setSearch] = useSearchParams();
  const { sendingNow } = run;

  // Closing the tab while images are still being sent would leave them unsent: the browser asks first.
  useEffect(() => {
    if (!sendingNow) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [sendingNow]);

  // The batch left the URL another way (the tool's link in the menu, Back): the page starts empty, as
  // a reload of that address would show it.
  const shownId = useRef(run.batchId);
  const emptyRef = useRef(onEmpty);
  emptyRef.current = onEmpty;
  const { reset } = run;
  useEffect(() => {
    if (shownId.current && !run.batchId) {
      reset();
      emptyRef.current();
    }
    shownId.current = run.batchId;
  }, [run.batchId, reset]);

  const startOver = () => {
    run.reset();
    onEmpty();
    setSearch((params) => {
      params.delete(BATCH_PARAM);
      return params;
    });
  };

  return (
    <ToolPage tool={runner.tool}>
      {run.batchId || run.batch ? (
        <BatchProgress tool={runner.tool} run={run} onNew={startOver} />
      ) : (
        <BatchPicker
          runner={runner}
          files={files}
          run={run}
          fields={fields}
          options={options}
          problem={problem}
          onSingle={onSingle}
        />
      )}
    </ToolPage>
  );
}
