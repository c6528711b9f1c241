// One inference at a time per model: the machine has two cores, and two concurrent runs of one
// network only slow each other down and double the memory. A gate also loads its model lazily,
// once, on first use, and keeps it loaded.

export type ModelGate<M> = {
  /** Runs `work` with the loaded model once every earlier run of this gate has finished. */
  run<T>(work: (model: M) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** How many runs are waiting or running now (0 when idle). */
  readonly pending: number;
  /** Whether the model has been loaded (for health and tests). */
  readonly loaded: boolean;
};

export function createModelGate<M>(load: () => Promise<M>): ModelGate<M> {
  let model: Promise<M> | undefined;
  let loaded = false;
  let tail: Promise<unknown> = Promise.resolve();
  let pending = 0;

  const getModel = () => {
    if (!model) {
      model = load().then(
        (m) => {
          loaded = true;
          return m;
        },
        (error) => {
          // A failed load is tried again by the next run rather than cached forever.
          model = undefined;
          throw error;
        },
      );
    }
    return model;
  };

  return {
    run(work, signal) {
      pending += 1;
      const result = tail.then(async () => {
        signal?.throwIfAborted();
        return work(await getModel());
      });
      const settled = result.finally(() => {
        pending -= 1;
      });
      tail = settled.catch(() => undefined);
      return settled;
    },
    get pending() {
      return pending;
    },
    get loaded() {
      return loaded;
    },
  };
}

/** Gates by name, each made on first use and then kept: one per network size or scale. */
export type GateCache<M> = {
  /**
   * The gate named `key`, made with `load` if there is none. `load` gets `forget`, for a model that
   * dies later (its thread exited): the gate is dropped, so that the next run loads it afresh.
   */
  get(key: string, load: (forget: () => void) => Promise<M>): ModelGate<M>;
};

export function createGateCache<M>(): GateCache<M> {
  const gates = new Map<string, ModelGate<M>>();
  return {
    get(key, load) {
      const existing = gates.get(key);
      if (existing) return existing;
      const gate = createModelGate(() =>
        load(() => {
          // A newer gate under this name stays.
          if (gates.get(key) === gate) gates.delete(key);
        }),
      );
      gates.set(key, gate);
      return gate;
    },
  };
}
