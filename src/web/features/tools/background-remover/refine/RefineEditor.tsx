// Refine a cut-out by hand (issue 58 item 1, decision 082): Erase and Restore brushes over the
// original photo, brush size, zoom and pan, undo and redo, before/after, a backdrop of white, black
// or checkerboard; mouse, pen and finger (pointer events; `touch-action: none` on the canvas), keys
// (E, R, [ ], Ctrl/Cmd+Z, Shift+Ctrl/Cmd+Z or Ctrl+Y, B, space-drag to pan). A modal dialog, focus
// kept inside; Escape closes, asking first when something was painted. Save sends the mask and
// hands back the new version. Its own chunk (tool.ts loadRefineEditor): the pages load it on "Refine".
import { Brush, Eraser, Hand, Redo2, Undo2, X, ZoomIn, ZoomOut } from 'lucide-react';
import {
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
  useCallback,
  useEffect,
  useId,
  useReducer,
  useRef,
  useState,
} from 'react';
import type { Creation } from '../../../../../contract/creations';
import { FormMessage } from '../../../../components/FormMessage';
import { errorMessage } from '../../../../lib/api';
import { maskUrl, refineCreation } from '../../../../lib/creations/creations-api';
import type { RefineEditorProps } from '../../web-tool';
import { editorReducer, initialEditorState, isEdited, type Point, type Stroke, shortcutOf } from './editor-state';
import {
  type Backdrop,
  copyOf,
  drawView,
  loadImage,
  maskBlob,
  maskCanvasFrom,
  paintStroke,
  replay,
  type View,
} from './mask-canvas';
import './refine.css';

const BACKDROPS: { value: Backdrop; label: string }[] = [
  { value: 'checker', label: 'Checkerboard' },
  { value: 'white', label: 'White' },
  { value: 'black', label: 'Black' },
];
const ZOOM = { min: 1, max: 16, step: 1.5 } as const;
const LEAVE_QUESTION = 'Close the editor? What you painted is not saved.';

type Loaded = { photo: HTMLImageElement; start: HTMLCanvasElement; mask: HTMLCanvasElement };

export function RefineEditor({ jobId, photoUrl, onClose, onSaved }: RefineEditorProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  const screenRef = useRef<HTMLCanvasElement>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [state, dispatch] = useReducer(editorReducer, undefined, initialEditorState);
  const [zoom, setZoom] = useState(1);
  const [pan, setPan] = useState({ x: 0, y: 0 });
  const [panMode, setPanMode] = useState(false);
  const [spaceHeld, setSpaceHeld] = useState(false);
  const [before, setBefore] = useState(false);
  const [backdrop, setBackdrop] = useState<Backdrop>('checker');
  const [saving, setSaving] = useState(false);
  const drawing = useRef<{ stroke: Stroke; painted: number; pointerId: number } | null>(null);
  const panning = useRef<{ x: number; y: number; pointerId: number } | null>(null);
  const view = useRef<View>({ scale: 1, offsetX: 0, offsetY: 0 });
  const frame = useRef<number | null>(null);

  // The photo and the mask to start from, once.
  useEffect(() => {
    let live = true;
    Promise.all([loadImage(photoUrl), loadImage(maskUrl(jobId))]).then(
      ([photo, maskImage]) => {
        if (!live) return;
        const start = maskCanvasFrom(maskImage);
        setLoaded({ photo, start, mask: copyOf(start) });
      },
      () => live && setProblem('The photo or its mask could not be loaded. Close the editor and try again.'),
    );
    return () => {
      live = false;
    };
  }, [jobId, photoUrl]);

  /** Draws on the next frame (many pointer moves make one drawing). */
  const redraw = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      const screen = screenRef.current;
      if (!screen || !loaded) return;
      const ratio = window.devicePixelRatio || 1;
      const width = Math.round(screen.clientWidth * ratio);
      const height = Math.round(screen.clientHeight * ratio);
      if (screen.width !== width || screen.height !== height) Object.assign(screen, { width, height });
      const fit = Math.min(width / loaded.mask.width, height / loaded.mask.height);
      const scale = fit * zoom;
      view.current = {
        scale,
        offsetX: (width - loaded.mask.width * scale) / 2 + pan.x * ratio,
        offsetY: (height - loaded.mask.height * scale) / 2 + pan.y * ratio,
      };
      drawView(screen, loaded.photo, loaded.mask, view.current, { before, ghost: state.brush === 'restore' });
    });
  }, [loaded, zoom, pan, before, state.brush]);

  useEffect(() => {
    redraw();
    const screen = screenRef.current;
    if (!screen) return;
    const observer = new ResizeObserver(() => redraw());
    observer.observe(screen);
    return () => observer.disconnect();
  }, [redraw]);

  // Undo and redo replay the strokes over the starting mask; a stroke just finished is painted already.
  const justPainted = useRef(false);
  useEffect(() => {
    if (!loaded) return;
    if (justPainted.current) justPainted.current = false;
    else replay(loaded.start, loaded.mask, state.done);
    redraw();
  }, [loaded, state.done, redraw]);

  /** The mask's pixel under a pointer. */
  const maskPoint = (event: PointerEvent<HTMLCanvasElement>): Point => {
    const screen = event.currentTarget;
    const rect = screen.getBoundingClientRect();
    const ratio = screen.width / rect.width;
    const { scale, offsetX, offsetY } = view.current;
    return {
      x: ((event.clientX - rect.left) * ratio - offsetX) / scale,
      y: ((event.clientY - rect.top) * ratio - offsetY) / scale,
    };
  };

  const onPointerDown = (event: PointerEvent<HTMLCanvasElement>) => {
    if (!loaded || saving) return;
    try {
      // Keeps the drag when it leaves the canvas; a pointer the browser does not know cannot be captured.
      event.currentTarget.setPointerCapture(event.pointerId);
    } catch {}
    if (panMode || spaceHeld || event.button === 1) {
      panning.current = { x: event.clientX - pan.x, y: event.clientY - pan.y, pointerId: event.pointerId };
      return;
    }
    if (drawing.current || event.button > 0) return;
    const ratio = event.currentTarget.width / event.currentTarget.getBoundingClientRect().width;
    const stroke: Stroke = {
      brush: state.brush,
      size: (state.size * ratio) / view.current.scale,
      points: [maskPoint(event)],
    };
    drawing.current = { stroke, painted: 0, pointerId: event.pointerId };
    paintStroke(loaded.mask, stroke, 0);
    drawing.current.painted = 1;
    setBefore(false);
    redraw();
  };

  const onPointerMove = (event: PointerEvent<HTMLCanvasElement>) => {
    if (panning.current?.pointerId === event.pointerId) {
      setPan({ x: event.clientX - panning.current.x, y: event.clientY - panning.current.y });
      return;
    }
    const current = drawing.current;
    if (!loaded || !current || current.pointerId !== event.pointerId) return;
    current.stroke.points.push(maskPoint(event));
    paintStroke(loaded.mask, current.stroke, current.painted);
    current.painted = current.stroke.points.length;
    redraw();
  };

  const onPointerUp = (event: PointerEvent<HTMLCanvasElement>) => {
    if (panning.current?.pointerId === event.pointerId) panning.current = null;
    const current = drawing.current;
    if (!current || current.pointerId !== event.pointerId) return;
    justPainted.current = true;
    dispatch({ type: 'stroke', stroke: current.stroke });
    drawing.current = null;
  };

  const zoomBy = (factor: number) => setZoom((z) => Math.min(ZOOM.max, Math.max(ZOOM.min, z * factor)));

  const requestClose = () => {
    if (saving) return;
    if (isEdited(state) && !window.confirm(LEAVE_QUESTION)) return;
    onClose();
  };

  const save = async () => {
    if (!loaded || saving) return;
    setSaving(true);
    setProblem(null);
    try {
      const answer = await refineCreation(jobId, await maskBlob(loaded.mask));
      if (answer.ok && answer.data) {
        onSaved(answer.data as Creation);
        return;
      }
      setProblem(errorMessage(answer.data) ?? 'The refined version could not be saved. Please try again.');
    } catch {
      setProblem('The server could not be reached. Check your connection and try again.');
    }
    setSaving(false);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      // Not the dialog under it too (My Creations' viewer closes on Escape).
      event.preventDefault();
      event.stopPropagation();
      requestClose();
      return;
    }
    if (event.key === 'Tab') {
      keepFocusInside(event, dialogRef.current);
      return;
    }
    const inField = event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement;
    if (event.key === ' ' && !inField && event.target === screenRef.current) {
      event.preventDefault();
      setSpaceHeld(true);
      return;
    }
    if (inField && !(event.ctrlKey || event.metaKey)) return;
    const action = shortcutOf(event);
    if (!action) return;
    event.preventDefault();
    if (action === 'before-after') setBefore((b) => !b);
    else dispatch(action);
  };

  // The dialog takes focus when it opens and gives it back to what opened it.
  useEffect(() => {
    const opener = document.activeElement;
    dialogRef.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    return () => {
      if (opener instanceof HTMLElement) opener.focus();
    };
  }, []);

  const mode = panMode || spaceHeld ? 'pan' : state.brush;
  return (
    <div className="pp-refine" role="presentation">
      <div
        ref={dialogRef}
        className="pp-refine__panel pp-card"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        onKeyDown={onKeyDown}
        onKeyUp={(event) => event.key === ' ' && setSpaceHeld(false)}
      >
        <div className="pp-refine__head">
          <h2 id={titleId} className="pp-card__title">
            Refine the cut-out
          </h2>
          <button type="button" className="pp-icon-button" aria-label="Close" onClick={requestClose}>
            <X size={20} aria-hidden="true" />
          </button>
        </div>
        <div className="pp-refine__tools" role="toolbar" aria-label="Brush">
          <div className="pp-refine__group">
            <ToolButton
              label="Erase (E)"
              text="Erase"
              pressed={state.brush === 'erase' && !panMode}
              autoFocus
              onClick={() => {
                setPanMode(false);
                dispatch({ type: 'brush', brush: 'erase' });
              }}
              icon={<Eraser size={16} aria-hidden="true" />}
            />
            <ToolButton
              label="Restore (R)"
              text="Restore"
              pressed={state.brush === 'restore' && !panMode}
              onClick={() => {
                setPanMode(false);
                dispatch({ type: 'brush', brush: 'restore' });
              }}
              icon={<Brush size={16} aria-hidden="true" />}
            />
            <ToolButton
              label="Pan (hold space)"
              text="Pan"
              pressed={panMode}
              onClick={() => setPanMode((p) => !p)}
              icon={<Hand size={16} aria-hidden="true" />}
            />
          </div>
          <label className="pp-refine__size">
            <span>Size {state.size}</span>
            <input
              type="range"
              className="pp-range"
              min={4}
              max={300}
              value={state.size}
              aria-label="Brush size ([ and ])"
              onChange={(event) => dispatch({ type: 'size', size: Number(event.target.value) })}
            />
          </label>
          <div className="pp-refine__group">
            <IconButton
              label="Undo (Ctrl+Z)"
              disabled={state.done.length === 0}
              onClick={() => dispatch({ type: 'undo' })}
            >
              <Undo2 size={16} aria-hidden="true" />
            </IconButton>
            <IconButton
              label="Redo (Ctrl+Y)"
              disabled={state.undone.length === 0}
              onClick={() => dispatch({ type: 'redo' })}
            >
              <Redo2 size={16} aria-hidden="true" />
            </IconButton>
            <IconButton label="Zoom out" disabled={zoom <= ZOOM.min} onClick={() => zoomBy(1 / ZOOM.step)}>
              <ZoomOut size={16} aria-hidden="true" />
            </IconButton>
            <IconButton label="Zoom in" disabled={zoom >= ZOOM.max} onClick={() => zoomBy(ZOOM.step)}>
              <ZoomIn size={16} aria-hidden="true" />
            </IconButton>
          </div>
          <div className="pp-refine__group">
            <ToolButton
              label="Before and after (B)"
              text="Before"
              pressed={before}
              onClick={() => setBefore((b) => !b)}
            />
            <label className="pp-refine__backdrop">
              <span className="pp-visually-hidden">Backdrop</span>
              <select
                className="pp-input pp-select pp-refine__select"
                value={backdrop}
                onChange={(event) => setBackdrop(event.target.value as Backdrop)}
              >
                {BACKDROPS.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </div>
        <div className={`pp-refine__stage pp-refine__stage--${backdrop}`}>
          <canvas
            ref={screenRef}
            className="pp-refine__canvas"
            data-mode={mode}
            data-ready={loaded ? 'true' : 'false'}
            data-strokes={state.done.length}
            // Keys reach the editor from the canvas too (space to pan); the picture is described by the dialog.
            tabIndex={0}
            aria-label={`Photo being refined: ${before ? 'the photo as uploaded' : 'the cut-out'}. Drag to ${mode === 'pan' ? 'move it' : `${mode} the mask`}.`}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            onWheel={(event) => zoomBy(event.deltaY < 0 ? 1.1 : 1 / 1.1)}
          />
          {!loaded && !problem ? <p className="pp-refine__loading">Loading the photo and its mask…</p> : null}
        </div>
        <FormMessage message={problem ? { tone: 'error', text: problem } : null} />
        <div className="pp-refine__foot">
          <p className="pp-refine__hint">Saving makes a new version with the same finish. Refining is free.</p>
          <button type="button" className="pp-button pp-button--secondary" onClick={requestClose} disabled={saving}>
            Cancel
          </button>
          <button
            type="button"
            className="pp-button pp-button--primary"
            onClick={() => void save()}
            disabled={!loaded || saving}
          >
            {saving ? 'Saving…' : 'Save version'}
          </button>
        </div>
      </div>
    </div>
  );
}

function ToolButton({
  label,
  text,
  pressed,
  onClick,
  icon = null,
  autoFocus = false,
}: {
  label: string;
  text: string;
  pressed: boolean;
  onClick: () => void;
  icon?: ReactNode;
  autoFocus?: boolean;
}) {
  return (
    <button
      type="button"
      className="pp-button pp-button--secondary pp-button--sm pp-refine__toggle"
      aria-pressed={pressed}
      title={label}
      data-autofocus={autoFocus ? '' : undefined}
      onClick={onClick}
    >
      {icon}
      <span>{text}</span>
    </button>
  );
}

function IconButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className="pp-icon-button"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </button>
  );
}

/** Tab and Shift+Tab go round the dialog's controls, never out of it. */
function keepFocusInside(event: KeyboardEvent<HTMLDivElement>, dialog: HTMLDivElement | null) {
  if (!dialog) return;
  const focusable = [...dialog.querySelectorAll<HTMLElement>('button:not([disabled]), input, select, [tabindex="0"]')];
  const first = focusable[0];
  const last = focusable.at(-1);
  if (!first || !last) return;
  if (event.shiftKey && document.activeElement === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && document.activeElement === last) {
    event.preventDefault();
    first.focus();
  }
}
