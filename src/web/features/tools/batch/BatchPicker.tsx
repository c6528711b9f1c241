import { Coins, ImagePlus, X } from 'lucide-react';
import { type DragEvent, type MouseEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { MAX_BATCH_IMAGES } from '../../../../contract/batches';
import { imageSizeProblem } from '../../../../contract/input-limits';
import { ROUTES } from '../../../../contract/routes';
import type { ImageToolId } from '../../../../contract/tools';
import { FormMessage } from '../../../components/FormMessage';
import { saveBatchDraft } from '../../../lib/batch-draft';
import { formatTokens } from '../../../lib/format-cost';
import { Link, useNavigate } from '../../../lib/router';
import { useAuth } from '../../../lib/session/auth-context';
import { saveToolDraft } from '../../../lib/tool-draft';
import { BatchGrid, BatchTile } from '../parts/BatchGrid';
import { droppedFiles } from '../parts/dropped-files';
import { FreePreviewNotice, LowerPriceNotice } from '../parts/FreePreviewNotice';
import { CostChip } from '../parts/fields';
import { ACCEPT, formatBytes, type ImageSize } from '../parts/ImageDropZone';
import { firstFailingCheck } from '../tool-rules';
import type { ToolRunner } from '../use-tool-runner';
import type { BatchFiles, PickedFile } from './batch-files';
import { costLine, imagesText, runLabel, runPlan } from './cost';
import type { BatchRun } from './use-batch-run';

type Props = {
  runner: ToolRunner;
  files: BatchFiles;
  run: BatchRun;
  /** The tool's settings, sent with every image (the Image Upscaler's scale). */
  fields: Record<string, unknown>;
  /** The tool's own inputs (its scale choice), applying to every image. */
  options?: ReactNode;
  /** The page's own problem with an image's size (an upscale's limit for its scale), as for one image. */
  problem?: (size: ImageSize | null) => string | null;
  /** Down to one image: the page goes back to its single view with it. */
  onSingle: (file: PickedFile) => void;
};

/** The badge of a file the page will not send (its tile says why). */
export const REFUSED_BADGE = "Can't use";

/** "A batch holds up to 50 images..." when an addition went over. */
export const leftOutText = (count: number) =>
  `A batch holds up to ${MAX_BATCH_IMAGES} images. The first ${MAX_BATCH_IMAGES} are kept; ${count} more ${count === 1 ? 'was' : 'were'} left out.`;

/**
 * A batch before it runs: the images, each with its name, size and × (a file the page cannot send
 * says why on its tile), more added by choosing, dropping or pasting, the tool's settings, and what
 * the run costs against the balance, with a button for what the balance covers.
 */
export function BatchPicker({ runner, files, run, fields, options, problem, onSingle }: Props) {
  const { tool, price, balance, freePreview } = runner;
  const { status, profile } = useAuth();
  const navigate = useNavigate();
  const inputId = useId();
  const titleId = useId();
  const [dragging, setDragging] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const add = useRef(files.add);
  add.current = files.add;
  const off = runner.locked && runner.access !== 'unknown';

  // More images pasted anywhere on the page join the batch (text pastes are left alone).
  useEffect(() => {
    if (off) return;
    const onPaste = (event: ClipboardEvent) => {
      const pasted = Array.from(event.clipboardData?.files ?? []);
      if (pasted.length === 0) return;
      event.preventDefault();
      add.current(pasted);
    };
    document.addEventListener('paste', onPaste);
    return () => document.removeEventListener('paste', onPaste);
  }, [off]);

  // The single page's checks, each image on its own: its file first, then its pixels once measured.
  const imageTool = tool.id as ImageToolId;
  const problemOf = (file: PickedFile) =>
    file.rejected ??
    (file.size ? (problem?.(file.size) ?? imageSizeProblem(imageTool, file.size.width, file.size.height)) : null);
  const usable = files.files.filter((file) => !problemOf(file));
  const refused = files.files.length - usable.length;
  const plan = runPlan(usable.length, price, balance);
  const cost = plan.runs * price;
  const busy = run.starting;

  const leaving = useRef(false);
  /**
   * To /tokens with the batch kept for the way back: its images (those it can send, in order, with
   * their names) and the settings, and what it needs for /tokens to say. Navigates once they are kept.
   */
  const toTokens = async (needed: number) => {
    // A second click while the images are being kept goes nowhere new.
    if (leaving.current) return;
    leaving.current = true;
    const kept = usable.map(({ file, name }) => ({ file, name }));
    const saved = await saveBatchDraft(tool.id, kept);
    saveToolDraft({ toolId: tool.id, cost: needed, settings: fields, batchImages: saved ? kept.length : undefined });
    navigate(ROUTES.tokens);
  };

  // "Buy tokens" stays a link (a new tab, a copied address); a plain click or Enter keeps the batch first.
  const onBuyTokens = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    void toTokens(usable.length * price);
  };

  const onRun = () => {
    if (busy || plan.runs === 0) return;
    // The single call's checks (signed in, not suspended, enough tokens), for the whole run.
    const outcome = firstFailingCheck(tool.submitChecks, {
      profile: status === 'signed-in' ? profile : null,
      cost,
      hasImage: plan.runs > 0,
    });
    if (outcome?.kind === 'redirect-to-tokens') {
      void toTokens(cost);
      return;
    }
    if (outcome?.kind === 'message') {
      setMessage(outcome.text);
      return;
    }
    if (outcome?.kind === 'ignore') return;
    setMessage(null);
    const entries = usable.slice(0, plan.runs).map(({ file, name, url }) => ({ file, name, url }));
    void run.start(entries, fields);
  };

  const dragHandlers = {
    onDragEnter: (event: DragEvent) => {
      event.preventDefault();
      if (!off) setDragging(true);
    },
    onDragOver: (event: DragEvent) => {
      event.preventDefault();
      event.dataTransfer.dropEffect = off ? 'none' : 'copy';
    },
    onDragLeave: (event: DragEvent) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
    },
    onDrop: (event: DragEvent) => {
      event.preventDefault();
      setDragging(false);
      if (off) return;
      void droppedFiles(event.dataTransfer).then((dropped) => add.current(dropped));
    },
  };

  const shown = message ?? run.startError;
  return (
    <div className="pp-batch">
      <section
        className="pp-panel pp-batch__images"
        aria-labelledby={titleId}
        data-dragging={dragging}
        data-testid="batch-picker"
        {...dragHandlers}
      >
        <div className="pp-batch__head">
          <h2 id={titleId} className="pp-panel__title">
            Your batch <span className="pp-batch__count pp-tabular">{imagesText(files.files.length)}</span>
          </h2>
          <input
            id={inputId}
            type="file"
            multiple
            accept={ACCEPT}
            className="pp-visually-hidden"
            disabled={off || busy}
            data-testid="batch-add-input"
            onChange={(event) => {
              files.add(Array.from(event.target.files ?? []));
              event.target.value = '';
            }}
          />
          <label htmlFor={inputId} className="pp-button pp-button--secondary pp-button--sm pp-batch__add">
            <ImagePlus size={16} aria-hidden="true" />
            Add images
          </label>
        </div>
        <p className="pp-field__hint">Drop, paste or add more images: up to {MAX_BATCH_IMAGES} in one batch.</p>
        {files.leftOut > 0 ? (
          <p className="pp-field__warning" role="status" data-testid="batch-left-out">
            {leftOutText(files.leftOut)}
          </p>
        ) : null}
        {refused > 0 ? (
          <p className="pp-field__hint" data-testid="batch-refused">
            {refused === 1
              ? '1 file cannot be sent: its picture says why.'
              : `${refused} files cannot be sent: each picture says why.`}
          </p>
        ) : null}
        <BatchGrid label="Images of the batch">
          {files.files.map((file) => {
            const why = problemOf(file);
            return (
              <BatchTile
                key={file.key}
                name={file.name}
                image={file.url}
                imageAlt={file.name}
                badge={why ? { tone: 'failed', text: REFUSED_BADGE } : null}
                onImageLoad={(event) =>
                  files.measured(file.key, {
                    width: event.currentTarget.naturalWidth,
                    height: event.currentTarget.naturalHeight,
                  })
                }
                onImageError={() => files.unreadable(file.key)}
                corner={
                  <button
                    type="button"
                    className="pp-icon-button pp-batch-tile__remove"
                    aria-label={`Remove ${file.name}`}
                    disabled={busy}
                    onClick={() => {
                      const left = files.remove(file.key);
                      if (left.length === 1) onSingle(left[0] as PickedFile);
                    }}
                  >
                    <X size={16} aria-hidden="true" />
                  </button>
                }
              >
                <p className="pp-batch-tile__note pp-tabular">{formatBytes(file.file.size)}</p>
                {why ? (
                  <p className="pp-batch-tile__error" title={why}>
                    {why}
                  </p>
                ) : null}
              </BatchTile>
            );
          })}
        </BatchGrid>
      </section>
      <section className="pp-panel pp-batch__side" aria-label="Run the batch">
        {options ? (
          <fieldset className="pp-options" disabled={off || busy}>
            {options}
          </fieldset>
        ) : null}
        {freePreview ? (
          <FreePreviewNotice notice={runner.provider === 'local' ? tool.localPreviewNotice : undefined} />
        ) : tool.lowerPriceNote && price < tool.cost ? (
          <LowerPriceNotice note={tool.lowerPriceNote} />
        ) : null}
        <div className="pp-batch__cost" data-testid="batch-cost">
          {usable.length === 0 ? (
            <p>No image here can be sent. Add PNG, JPG or WEBP images.</p>
          ) : freePreview || price === 0 ? (
            <p className="pp-tabular">{imagesText(usable.length)} as free previews: no tokens are taken.</p>
          ) : (
            <>
              <p className="pp-batch__cost-line pp-tabular">{costLine(usable.length, price)}</p>
              {balance !== null ? <p className="pp-tabular">You have {formatTokens(balance)}.</p> : null}
              {plan.covers === 'some' ? (
                <p>Your balance covers {plan.runs} of them.</p>
              ) : plan.covers === 'none' ? (
                <p>Your balance does not cover one image.</p>
              ) : null}
            </>
          )}
        </div>
        <div className="pp-batch__actions">
          {plan.covers !== 'none' ? (
            <button
              type="button"
              className="pp-button pp-button--primary pp-button--lg pp-batch__run"
              disabled={plan.runs === 0 || runner.locked || busy}
              onClick={onRun}
            >
              {busy ? (
                'Starting…'
              ) : (
                <>
                  <span>{runLabel(plan)}</span>
                  {/* The cost is said in words above; the chip repeats it where the eye is. */}
                  <CostChip freePreview={freePreview || price === 0} cost={cost} hidden />
                </>
              )}
            </button>
          ) : null}
          {plan.covers !== 'all' ? (
            <Link
              className={`pp-button ${plan.covers === 'none' ? 'pp-button--primary pp-button--lg' : 'pp-button--secondary'}`}
              to={ROUTES.tokens}
              onClick={onBuyTokens}
            >
              <Coins size={16} aria-hidden="true" />
              Buy tokens
            </Link>
          ) : null}
        </div>
        <FormMessage message={shown ? { tone: 'error', text: shown } : null} testId="batch-message" />
      </section>
    </div>
  );
}
