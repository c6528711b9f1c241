import { useCallback, useEffect, useRef, useState } from 'react';
import type { Creation, CreationUsage } from '../../../../contract/creations';
import type { ToolId } from '../../../../contract/tools';
import { getUsage, listCreations } from '../../../lib/creations/creations-api';

/** How many creations a page of the grid holds. */
export const PAGE_SIZE = 24;

type ListState =
  | { phase: 'loading' }
  | { phase: 'error' }
  | { phase: 'ready'; creations: Creation[]; next: string | null; loadingMore: boolean };

/**
 * The signed-in user's creations of one tool (or all), newest first: the first page, "load more"
 * with the server's cursor, and the grid's own changes (a deletion, a share link turned on or off).
 */
export function useCreations(tool: ToolId | null, signedIn: boolean) {
  const [state, setState] = useState<ListState>({ phase: 'loading' });
  const [usage, setUsage] = useState<CreationUsage | null>(null);
  const ticket = useRef(0);

  const reload = useCallback(async () => {
    const mine = ++ticket.current;
    setState({ phase: 'loading' });
    const answer = await listCreations({ tool, limit: PAGE_SIZE }).catch(() => null);
    if (mine !== ticket.current) return;
    setState(
      answer?.ok && answer.data
        ? { phase: 'ready', creations: answer.data.creations, next: answer.data.next, loadingMore: false }
        : { phase: 'error' },
    );
  }, [tool]);

  const refreshUsage = useCallback(() => {
    getUsage().then(
      (answer) => setUsage(answer.ok ? answer.data : null),
      () => setUsage(null),
    );
  }, []);

  useEffect(() => {
    if (!signedIn) return;
    void reload();
    refreshUsage();
  }, [signedIn, reload, refreshUsage]);

  const loadMore = useCallback(async () => {
    if (state.phase !== 'ready' || !state.next || state.loadingMore) return;
    const mine = ticket.current;
    setState({ ...state, loadingMore: true });
    const answer = await listCreations({ tool, cursor: state.next, limit: PAGE_SIZE }).catch(() => null);
    if (mine !== ticket.current) return;
    setState((current) => {
      if (current.phase !== 'ready') return current;
      if (!answer?.ok || !answer.data) return { ...current, loadingMore: false };
      const known = new Set(current.creations.map((creation) => creation.id));
      const more = answer.data.creations.filter((creation) => !known.has(creation.id));
      return { phase: 'ready', creations: [...current.creations, ...more], next: answer.data.next, loadingMore: false };
    });
  }, [state, tool]);

  /** The grid without a deleted creation (and the storage it freed). */
  const removed = useCallback(
    (id: string) => {
      setState((current) =>
        current.phase === 'ready'
          ? { ...current, creations: current.creations.filter((creation) => creation.id !== id) }
          : current,
      );
      refreshUsage();
    },
    [refreshUsage],
  );

  /** The grid without a deleted batch's jobs. */
  const removedBatch = useCallback(
    (batchId: string) => {
      setState((current) =>
        current.phase === 'ready'
          ? { ...current, creations: current.creations.filter((creation) => creation.batch?.id !== batchId) }
          : current,
      );
      refreshUsage();
    },
    [refreshUsage],
  );

  /** A creation's share link changed. */
  const shared = useCallback((id: string, shareUrl: string | null) => {
    setState((current) =>
      current.phase === 'ready'
        ? {
            ...current,
            creations: current.creations.map((creation) => (creation.id === id ? { ...creation, shareUrl } : creation)),
          }
        : current,
    );
  }, []);

  return { state, usage, reload, loadMore, removed, removedBatch, shared };
}
