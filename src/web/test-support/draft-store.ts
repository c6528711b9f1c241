// An in-memory stand-in for the IndexedDB that keeps a batch's draft (lib/batch-draft.ts): happy-dom
// has none. Values are kept as given (IndexedDB would clone them; the files are the same bytes).
import { afterEach, beforeEach } from 'vitest';
import { type DraftStore, setBatchDraftStore } from '../lib/batch-draft';

export type MemoryDraftStore = DraftStore & { values: Map<string, unknown> };

export function memoryDraftStore(): MemoryDraftStore {
  const values = new Map<string, unknown>();
  return {
    values,
    get: async (key) => values.get(key),
    put: async (key, value) => {
      values.set(key, value);
    },
    delete: async (key) => {
      values.delete(key);
    },
  };
}

/** Each test of the file gets a fresh in-memory store; afterwards the page looks for IndexedDB again. */
export function withMemoryDraftStore(): { current: MemoryDraftStore } {
  const holder = { current: memoryDraftStore() };
  beforeEach(() => {
    holder.current = memoryDraftStore();
    setBatchDraftStore(holder.current);
  });
  afterEach(() => setBatchDraftStore(undefined));
  return holder;
}
