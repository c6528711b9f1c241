// In-process shortcuts around polling. When the web role and the worker share a process, a queued
// job wakes the worker at once and a finished job wakes the request waiting for it. Across
// processes (--web / --worker) nothing is signalled and both sides fall back to polling, so these
// only ever make things faster, never correct.
import { EventEmitter } from 'node:events';
import type { JobRow } from './jobs-repository';

/**
 * A job as its finish left it and the owner's balance right after (refund included): what the
 * waiting request answers with, so it reads neither back.
 */
export type FinishedJob = { job: JobRow; balance: number };

export class JobSignals {
  private readonly finished = new EventEmitter().setMaxListeners(0);
  private readonly wakers: Array<() => boolean> = [];
  private nextWaker = 0;

  /**
   * A worker in this process that wants to hear about new jobs. `wake` wakes it and answers whether
   * it was idle (so it will take the job now); a busy one fetches again as soon as it is done.
   */
  onQueued(wake: () => boolean) {
    this.wakers.push(wake);
  }

  /** Wakes one idle worker, starting from the next in turn (not all of them: all but one would find nothing). */
  queued() {
    const count = this.wakers.length;
    for (let i = 0; i < count; i++) {
      const wake = this.wakers[(this.nextWaker + i) % count];
      if (wake?.()) {
        this.nextWaker = (this.nextWaker + i + 1) % count;
        return;
      }
    }
  }

  /** `finished`: the final row and balance when the finisher has them (else the waiter reads them). */
  jobFinished(jobId: string, finished?: FinishedJob) {
    this.finished.emit(jobId, finished ?? null);
  }

  /** Resolves when `jobId` is reported finished in this process (with what it carried), or null after `ms`. */
  untilFinished(jobId: string, ms: number): Promise<FinishedJob | null> {
    return new Promise((resolve) => {
      const done = (finished: FinishedJob | null = null) => {
        clearTimeout(timer);
        this.finished.off(jobId, done);
        resolve(finished);
      };
      const timer = setTimeout(done, ms);
      this.finished.once(jobId, done);
    });
  }
}
