// One worker slot of tool-workers.ts: the state between its jobs (looking, idle until the next poll
// or a wake, held for a job being charged in this process: decision 031).
import type { TakenJob } from '../queue/jobs-repository';

/**
 * One job at a time: sleeps between polls, woken early when a job is queued in this process, or
 * handed a job charged here while it was held for it (reserve, then handOver or release).
 */
export class Slot {
  busy = false;
  private wakeUp: ((handed: TakenJob | null) => void) | null = null;
  private woken = false;
  private reserved = false;

  constructor(private readonly pollMs: number) {}

  /** Whether a wake came since it last looked for a job (it should look again before it sleeps). */
  get wokenSinceLooking(): boolean {
    return this.woken;
  }

  /** About to look for a job: a wake that comes from now on means "look again". */
  looking() {
    this.woken = false;
  }

  /**
   * Waits for the next poll or a wake (at once if a wake came while it was looking); answers a job
   * handed over meanwhile. Held for a job being charged, it waits for that job's hand-over or release.
   */
  idle(): Promise<TakenJob | null> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve(null);
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        if (!this.reserved) done(null);
      }, this.pollMs);
      const done = (handed: TakenJob | null) => {
        clearTimeout(timer);
        this.wakeUp = null;
        if (!handed) this.woken = false;
        this.reserved = false;
        resolve(handed);
      };
      this.wakeUp = done;
    });
  }

  /** Wakes the slot; answers whether it was free to take the job (JobSignals wakes one free slot per job). */
  wake(): boolean {
    if (this.reserved) {
      // Held for a job being charged: it looks again after running that one.
      this.woken = true;
      return false;
    }
    if (this.wakeUp) this.wakeUp(null);
    else this.woken = true;
    return !this.busy;
  }

  /** Holds an idle slot for a job being charged; false if it is not idle or already held. */
  reserve(): boolean {
    if (!this.wakeUp || this.reserved) return false;
    this.reserved = true;
    return true;
  }

  /** The held slot runs `taken`, claimed for it. */
  handOver(taken: TakenJob) {
    this.wakeUp?.(taken);
  }

  /** The held slot looks for work again (the job it was held for went to the queue, or was not made). */
  release() {
    this.wakeUp?.(null);
  }
}
