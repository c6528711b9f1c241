import { useCallback, useEffect, useRef, useState } from 'react';
import { ErrorResponse } from '../../lib/router';
import { adminGet } from './admin-api';

export type AdminData<T> = {
  /** The last answer read: kept while it is read again, so a refresh or the next page does not blank it. */
  data: T | null;
  /** The sentence of the last read when it failed, or null. */
  error: string | null;
  loading: boolean;
  /** Reads it again (after an action). */
  reload(): void;
};

type State<T> = { data: T | null; error: string | null; hidden: boolean; loading: boolean };

/**
 * What the console reads at `path` under /api/admin (null: nothing to read). When the API hides the
 * console (its 404 to anyone but an operator), this throws the router's not-found: the visitor sees
 * the app's not-found screen, as for an address with no page.
 */
export function useAdminData<T>(path: string | null): AdminData<T> {
  const [state, setState] = useState<State<T>>({ data: null, error: null, hidden: false, loading: path !== null });
  // The newest read: an older one's answer (a path left, a reload overtaken) is dropped.
  const latest = useRef(0);

  const load = useCallback((from: string) => {
    const id = ++latest.current;
    setState((s) => ({ ...s, loading: true }));
    void adminGet<T>(from).then((read) => {
      if (id !== latest.current) return;
      setState((s) =>
        read.ok
          ? { data: read.data, error: null, hidden: false, loading: false }
          : { ...s, hidden: read.hidden, error: read.hidden ? null : read.error, loading: false },
      );
    });
  }, []);

  useEffect(() => {
    if (path !== null) load(path);
    return () => {
      latest.current++;
    };
  }, [path, load]);

  const reload = useCallback(() => {
    if (path !== null) load(path);
  }, [path, load]);

  if (state.hidden) throw new ErrorResponse(404, 'Not Found');
  return { data: state.data, error: state.error, loading: state.loading, reload };
}
