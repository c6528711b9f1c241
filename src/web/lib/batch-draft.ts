// A batch's images, kept while the user buys tokens (issue 40: "the drafts kept on the way to /tokens,
// as for one image"). The tool's settings go with the tool draft (tool-draft.ts, sessionStorage);
// the images cannot: fifty photos are far past sessionStorage's few megabytes. IndexedDB keeps the
// File objects themselves (structured clone), so nothing is read or encoded on the way out.
//
// One draft at a time, for whichever tool saved it last (not tied to a tab: the checkout may come
// back in another), taken (read and deleted) when that tool's page opens again. A day-old draft is
// forgotten. With no IndexedDB (private mode in some browsers, happy-dom) or any failure, saving
// does nothing and taking finds nothing: the page is as it would be without a draft.
import type { ToolId } from '../../contract/tools';

/** One image of a batch, with the name the batch gives it. */
export type BatchDraftFile = { file: File; name: string };

type BatchDraftRecord = { toolId: ToolId; savedAt: number; files: BatchDraftFile[] };

/** Where the draft is kept: IndexedDB in a browser; a test gives one in memory. */
export type DraftStore = {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown): Promise<void>;
  delete(key: string): Promise<void>;
};

const DB_NAME = 'pp-drafts';
const STORE_NAME = 'drafts';
const KEY = 'batch';

/** A draft older than this is not restored (and is deleted when found). */
export const BATCH_DRAFT_MAX_AGE_MS = 24 * 60 * 60 * 1000;

/** Saving waits at most this long (a stuck database must not hold the user on the page). */
const SAVE_TIMEOUT_MS = 5000;

const requestDone = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error ?? new Error('IndexedDB request failed'));
  });

/** The browser's IndexedDB behind DraftStore, or null when there is none. */
export function indexedDbStore(): DraftStore | null {
  let factory: IDBFactory | undefined;
  try {
    factory = globalThis.indexedDB;
  } catch {
    return null; // Some browsers throw on the very access (sandboxed frames, blocked storage).
  }
  if (!factory) return null;
  const idb = factory;
  let opening: Promise<IDBDatabase> | null = null;
  const open = () => {
    opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const request = idb.open(DB_NAME, 1);
      request.onupgradeneeded = () => {
        if (!request.result.objectStoreNames.contains(STORE_NAME)) request.result.createObjectStore(STORE_NAME);
      };
      request.onsuccess = () => {
        const db = request.result;
        // A newer version elsewhere: let it go and open again next time.
        db.onversionchange = () => {
          db.close();
          opening = null;
        };
        resolve(db);
      };
      request.onerror = () => reject(request.error ?? new Error('IndexedDB open failed'));
      request.onblocked = () => reject(new Error('IndexedDB open blocked'));
    }).catch((error: unknown) => {
      opening = null;
      throw error;
    });
    return opening;
  };
  const run = async <T>(mode: IDBTransactionMode, act: (store: IDBObjectStore) => IDBRequest<T>): Promise<T> => {
    const db = await open();
    const transaction = db.transaction(STORE_NAME, mode);
    // Done once the transaction commits (a write that is not committed is not kept).
    const committed = new Promise<void>((resolve, reject) => {
      transaction.oncomplete = () => resolve();
      transaction.onerror = () => reject(transaction.error ?? new Error('IndexedDB transaction failed'));
      transaction.onabort = () => reject(transaction.error ?? new Error('IndexedDB transaction aborted'));
    });
    // A value that cannot be stored throws here (DataCloneError): the transaction's end is not awaited.
    committed.catch(() => undefined);
    const [result] = await Promise.all([requestDone(act(transaction.objectStore(STORE_NAME))), committed]);
    return result;
  };
  return {
    get: (key) => run('readonly', (store) => store.get(key)),
    put: async (key, value) => {
      await run('readwrite', (store) => store.put(value, key));
    },
    delete: async (key) => {
      await run('readwrite', (store) => store.delete(key));
    },
  };
}

/** undefined: not looked for yet (the browser's IndexedDB, found on first use). */
let current: DraftStore | null | undefined;

const store = (): DraftStore | null => {
  if (current === undefined) current = indexedDbStore();
  return current;
};

/** Tests: the store to use (null: none, as without IndexedDB; undefined: the browser's again). */
export function setBatchDraftStore(next: DraftStore | null | undefined): void {
  current = next;
}

const withTimeout = <T>(promise: Promise<T>, ms: number, fallback: T) =>
  new Promise<T>((resolve) => {
    const timer = setTimeout(() => resolve(fallback), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      () => {
        clearTimeout(timer);
        resolve(fallback);
      },
    );
  });

/**
 * Keeps `files` (in order, with their batch names) as the batch draft of `toolId`, replacing any
 * other. Resolves true once kept, false when they could not be (never rejects).
 */
export function saveBatchDraft(toolId: ToolId, files: readonly BatchDraftFile[]): Promise<boolean> {
  const target = store();
  if (!target || files.length === 0) return Promise.resolve(false);
  const record: BatchDraftRecord = {
    toolId,
    savedAt: Date.now(),
    files: files.map(({ file, name }) => ({ file, name })),
  };
  return withTimeout(
    Promise.resolve()
      .then(() => target.put(KEY, record))
      .then(() => true),
    SAVE_TIMEOUT_MS,
    false,
  );
}

/** The record's files when it is a well-formed draft, else null. */
function filesOf(record: Partial<BatchDraftRecord>): BatchDraftFile[] | null {
  if (!Array.isArray(record.files)) return null;
  const files: BatchDraftFile[] = [];
  for (const entry of record.files as unknown[]) {
    const { file, name } = (entry ?? {}) as Partial<BatchDraftFile>;
    if (!(file instanceof Blob) || typeof name !== 'string') return null;
    // A browser that gives a Blob back for a File: a File again, with its name.
    files.push({ file: file instanceof File ? file : new File([file], name, { type: (file as Blob).type }), name });
  }
  return files.length > 0 ? files : null;
}

/**
 * The batch draft `toolId` left, deleted as it is read; null when there is none, it is another
 * tool's (kept for that tool), it is older than a day (deleted), or it cannot be read. Never rejects.
 */
export async function takeBatchDraft(toolId: ToolId): Promise<BatchDraftFile[] | null> {
  const target = store();
  if (!target) return null;
  try {
    const raw = await target.get(KEY);
    if (raw === undefined || raw === null) return null;
    const record = raw as Partial<BatchDraftRecord>;
    const age = typeof record.savedAt === 'number' ? Date.now() - record.savedAt : Number.NaN;
    const stale = !(age >= 0 && age <= BATCH_DRAFT_MAX_AGE_MS);
    if (!stale && record.toolId !== toolId) return null;
    await target.delete(KEY);
    return stale ? null : filesOf(record);
  } catch {
    return null;
  }
}
