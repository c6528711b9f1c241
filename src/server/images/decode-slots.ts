// Full decodes at request time (image-decode.ts) and of thumbnails run on libuv's thread pool, the
// same few threads that serve every file read and password hash. Bounded here, a burst of uploads
// (one user's or several's) waits its turn instead of taking every thread (issue 36).

/** Decodes at once in this process: libuv's pool has 4 threads; the others stay for files and auth. */
export const DECODES_AT_ONCE = 2;

type Slot = () => void;

export type DecodeSlots = {
  /** Runs `work` when a slot is free and no earlier work of the same `owner` still runs. */
  run<T>(owner: string, work: () => Promise<T>): Promise<T>;
};

export function createDecodeSlots(limit = DECODES_AT_ONCE): DecodeSlots {
  let busy = 0;
  const waiting: Slot[] = [];
  // Each owner's work runs one at a time: one user cannot hold every slot.
  const owners = new Map<string, Promise<unknown>>();

  const acquire = () =>
    new Promise<void>((resolve) => {
      if (busy < limit) {
        busy += 1;
        resolve();
      } else waiting.push(resolve);
    });
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy -= 1;
  };

  return {
    run(owner, work) {
      const before = owners.get(owner) ?? Promise.resolve();
      const mine = before.then(async () => {
        await acquire();
        try {
          return await work();
        } finally {
          release();
        }
      });
      const settled = mine.catch(() => undefined);
      owners.set(owner, settled);
      void settled.then(() => {
        if (owners.get(owner) === settled) owners.delete(owner);
      });
      return mine;
    },
  };
}

/** This process's slots, shared by every decode made while serving requests. */
export const decodeSlots = createDecodeSlots();
