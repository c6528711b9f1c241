// The two timings every background loop of a worker needs (account setups, webhook deliveries):
// a pause between empty polls that a wake-up or a stop cuts short, and a stop that waits for the
// work in hand only so long before leaving it to a retry.

export type WakeableSleep = {
  /** Resolves after `ms`, or at once when woken meanwhile (or since the last sleep ended). */
  sleep(ms: number): Promise<void>;
  /** Ends the current sleep; with none under way, the next one returns at once. */
  wake(): void;
};

export function wakeableSleep(): WakeableSleep {
  let wokenEarly = false;
  let endSleep: (() => void) | null = null;
  return {
    sleep(ms) {
      return new Promise<void>((resolve) => {
        if (wokenEarly) {
          wokenEarly = false;
          resolve();
          return;
        }
        const done = () => {
          clearTimeout(timer);
          endSleep = null;
          resolve();
        };
        const timer = setTimeout(done, ms);
        timer.unref(); // a sleeping loop never holds the process open
        endSleep = done;
      });
    },
    wake() {
      if (endSleep) endSleep();
      else wokenEarly = true;
    },
  };
}

/** Waits for `work` up to `ms`: true when it ended in time, false when the wait gave up. */
export async function waitAtMost(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([work.then(() => true as const), gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
