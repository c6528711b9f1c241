// The refine editor's state (issue 58 item 1, decision 082), apart from any canvas: the strokes
// painted, undone and redone, the brush and its size. The mask on screen is always the model's (or
// the version's) mask with `done` painted over it, in order: undo and redo replay, so no copy of a
// 12 MP mask is kept per step.

export type Brush = 'erase' | 'restore';

/** A point in the mask's own pixels. */
export type Point = { x: number; y: number };

/** One drag of a brush: `size` is its diameter in the mask's pixels, its edge soft. */
export type Stroke = { brush: Brush; size: number; points: Point[] };

export type EditorState = {
  /** Painted over the starting mask, oldest first. */
  done: Stroke[];
  /** Undone, the next redo last. */
  undone: Stroke[];
  brush: Brush;
  /** The brush's diameter in screen pixels (the editor turns it into the mask's). */
  size: number;
};

export const BRUSH_SIZE = { min: 4, max: 300, start: 40 } as const;
/** `[` and `]` (and the buttons) change the size by this factor. */
const SIZE_STEP = 1.25;

export const initialEditorState = (): EditorState => ({ done: [], undone: [], brush: 'erase', size: BRUSH_SIZE.start });

export type EditorAction =
  | { type: 'stroke'; stroke: Stroke }
  | { type: 'undo' }
  | { type: 'redo' }
  | { type: 'brush'; brush: Brush }
  | { type: 'size'; size: number }
  | { type: 'grow' }
  | { type: 'shrink' };

const clampSize = (size: number) => Math.round(Math.min(BRUSH_SIZE.max, Math.max(BRUSH_SIZE.min, size)));

export function editorReducer(state: EditorState, action: EditorAction): EditorState {
  switch (action.type) {
    case 'stroke':
      // A new stroke ends the redo line, as in every editor.
      return action.stroke.points.length === 0 ? state : { ...state, done: [...state.done, action.stroke], undone: [] };
    case 'undo': {
      const last = state.done.at(-1);
      return last ? { ...state, done: state.done.slice(0, -1), undone: [...state.undone, last] } : state;
    }
    case 'redo': {
      const next = state.undone.at(-1);
      return next ? { ...state, done: [...state.done, next], undone: state.undone.slice(0, -1) } : state;
    }
    case 'brush':
      return { ...state, brush: action.brush };
    case 'size':
      return { ...state, size: clampSize(action.size) };
    case 'grow':
      return { ...state, size: clampSize(state.size * SIZE_STEP) };
    case 'shrink':
      return { ...state, size: clampSize(state.size / SIZE_STEP) };
  }
}

/** Whether anything was painted that a close would lose. */
export const isEdited = (state: EditorState) => state.done.length > 0;

/**
 * The mask's value (0: erased, 1: kept) at `point` after `strokes` over a starting value: the last
 * stroke that covers the point's centre decides (what the canvas paints, without its soft edge).
 */
export function maskValueAt(start: number, strokes: readonly Stroke[], point: Point): number {
  let value = start;
  for (const stroke of strokes) {
    const radius = stroke.size / 2;
    const covers = stroke.points.some((p, i) => {
      const prev = stroke.points[i - 1] ?? p;
      return distanceToSegment(point, prev, p) <= radius;
    });
    if (covers) value = stroke.brush === 'erase' ? 0 : 1;
  }
  return value;
}

function distanceToSegment(p: Point, a: Point, b: Point): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const length = dx * dx + dy * dy;
  const t = length === 0 ? 0 : Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length));
  return Math.hypot(p.x - (a.x + t * dx), p.y - (a.y + t * dy));
}

/** What a key does in the editor (null: nothing); `space` pans while held. */
export function shortcutOf(event: {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
}): EditorAction | 'before-after' | null {
  const command = event.ctrlKey || event.metaKey;
  const key = event.key.toLowerCase();
  if (command && key === 'z') return { type: event.shiftKey ? 'redo' : 'undo' };
  if (command && key === 'y') return { type: 'redo' };
  if (command) return null;
  if (key === 'e') return { type: 'brush', brush: 'erase' };
  if (key === 'r') return { type: 'brush', brush: 'restore' };
  if (key === '[') return { type: 'shrink' };
  if (key === ']') return { type: 'grow' };
  if (key === 'b') return 'before-after';
  return null;
}
