// "Run again" from My Creations opens a tool with the settings a job was run with (router state, so a
// shared address carries none). The fields take them as their first value; the user can change them.

import type { CreationSettings } from '../../../../contract/creations';
import { useLocation } from '../../../lib/router';

/** The router state My Creations sends with "Run again". */
export type RunAgainState = { runAgain: CreationSettings };

/** All the settings the job was run with (a page that reads several as one choice), or null. */
export function useRunAgainSettings(): CreationSettings | null {
  const state = useLocation().state as Partial<RunAgainState> | null;
  return state?.runAgain ?? null;
}

/** The first of `keys` the job was run with, when it is one of `allowed`; else `fallback`. */
export function useRunAgainSetting<T extends string | number | boolean>(
  keys: readonly string[],
  allowed: readonly T[] | null,
  fallback: T,
): T {
  const settings = useRunAgainSettings();
  for (const key of keys) {
    const value = settings?.[key];
    if (value === undefined) continue;
    if (allowed === null ? typeof value === typeof fallback : (allowed as readonly unknown[]).includes(value))
      return value as T;
  }
  return fallback;
}
