import { useEffect, useState } from 'react';
import type { ToolId } from '../../../contract/tools';
import { clearToolDraft, readToolDraft, type ToolDraft } from '../../lib/tool-draft';

/**
 * The draft this tool's page left when it sent the user to /tokens, read once when the page opens
 * and then forgotten (the page holds it from here on).
 */
export function useRestoredDraft(toolId: ToolId): ToolDraft | null {
  const [draft] = useState(() => readToolDraft(toolId));
  useEffect(() => {
    if (draft) clearToolDraft();
  }, [draft]);
  return draft;
}

/** One of the draft's settings when it is one of `allowed`, else `fallback`. */
export function draftSetting<T extends string | number>(
  draft: ToolDraft | null,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = draft?.settings?.[name];
  return (allowed as readonly unknown[]).includes(value) ? (value as T) : fallback;
}

/** The draft's text setting (a prompt), or ''. */
export const draftText = (draft: ToolDraft | null, name: string): string => {
  const value = draft?.settings?.[name];
  return typeof value === 'string' ? value : '';
};
