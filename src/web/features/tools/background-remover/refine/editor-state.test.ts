// The refine editor's state (issue 58): strokes erase and restore the mask in order, undo and redo
// step through them, a new stroke ends the redo line, the brush size stays in bounds, the keys.
import { describe, expect, it } from 'vitest';
import {
  BRUSH_SIZE,
  type EditorAction,
  type EditorState,
  editorReducer,
  initialEditorState,
  isEdited,
  maskValueAt,
  type Stroke,
  shortcutOf,
} from './editor-state';

const run = (...actions: EditorAction[]): EditorState => actions.reduce(editorReducer, initialEditorState());

/** A horizontal drag across the middle of a 100 x 100 mask, from x0 to x1. */
const drag = (brush: Stroke['brush'], x0: number, x1: number, size = 10): EditorAction => ({
  type: 'stroke',
  stroke: {
    brush,
    size,
    points: [
      { x: x0, y: 50 },
      { x: x1, y: 50 },
    ],
  },
});

const centre = { x: 50, y: 50 };

describe('the refine editor’s strokes', () => {
  it('erases where an Erase stroke passed and restores where a later Restore stroke passed', () => {
    const erased = run(drag('erase', 0, 100));
    expect(maskValueAt(1, erased.done, centre)).toBe(0);
    expect(maskValueAt(1, erased.done, { x: 50, y: 90 })).toBe(1);
    const restored = run(drag('erase', 0, 100), drag('restore', 40, 60));
    expect(maskValueAt(1, restored.done, centre)).toBe(1);
    expect(maskValueAt(1, restored.done, { x: 10, y: 50 })).toBe(0);
    // Restore brings back what the model had left out too.
    expect(maskValueAt(0, run(drag('restore', 0, 100)).done, centre)).toBe(1);
  });

  it('undoes and redoes stroke by stroke, and a new stroke ends the redo line', () => {
    const two = run(drag('erase', 0, 100), drag('restore', 40, 60));
    const undone = editorReducer(two, { type: 'undo' });
    expect(maskValueAt(1, undone.done, centre)).toBe(0);
    expect(undone.undone).toHaveLength(1);
    const redone = editorReducer(undone, { type: 'redo' });
    expect(maskValueAt(1, redone.done, centre)).toBe(1);
    expect(redone).toEqual(two);

    const allUndone = editorReducer(undone, { type: 'undo' });
    expect(isEdited(allUndone)).toBe(false);
    expect(maskValueAt(1, allUndone.done, centre)).toBe(1);
    // Nothing left to undo: the same state.
    expect(editorReducer(allUndone, { type: 'undo' })).toBe(allUndone);

    const branched = editorReducer(undone, drag('erase', 0, 10));
    expect(branched.undone).toEqual([]);
    expect(editorReducer(branched, { type: 'redo' })).toBe(branched);
  });

  it('keeps the brush size in bounds and ignores an empty stroke', () => {
    expect(run({ type: 'size', size: 1 }).size).toBe(BRUSH_SIZE.min);
    expect(run({ type: 'size', size: 5000 }).size).toBe(BRUSH_SIZE.max);
    const grown = run({ type: 'grow' });
    expect(grown.size).toBeGreaterThan(BRUSH_SIZE.start);
    expect(editorReducer(grown, { type: 'shrink' }).size).toBe(BRUSH_SIZE.start);
    const empty = initialEditorState();
    expect(editorReducer(empty, { type: 'stroke', stroke: { brush: 'erase', size: 10, points: [] } })).toBe(empty);
  });

  it('maps the shortcuts: E, R, [ ], B, Ctrl/Cmd+Z, Shift+Ctrl/Cmd+Z and Ctrl+Y', () => {
    const key = (k: string, mods: Partial<{ ctrlKey: boolean; metaKey: boolean; shiftKey: boolean }> = {}) =>
      shortcutOf({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, ...mods });
    expect(key('e')).toEqual({ type: 'brush', brush: 'erase' });
    expect(key('R', { shiftKey: true })).toEqual({ type: 'brush', brush: 'restore' });
    expect(key('[')).toEqual({ type: 'shrink' });
    expect(key(']')).toEqual({ type: 'grow' });
    expect(key('b')).toBe('before-after');
    expect(key('z', { ctrlKey: true })).toEqual({ type: 'undo' });
    expect(key('z', { metaKey: true })).toEqual({ type: 'undo' });
    expect(key('Z', { metaKey: true, shiftKey: true })).toEqual({ type: 'redo' });
    expect(key('y', { ctrlKey: true })).toEqual({ type: 'redo' });
    expect(key('e', { ctrlKey: true })).toBeNull();
    expect(key('x')).toBeNull();
  });
});
