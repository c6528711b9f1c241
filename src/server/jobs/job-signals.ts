// Shortcuts around polling. When the web role and the worker share a process, a queued job wakes the
// worker at once and a finished job wakes the request waiting for it. Across processes (--web /
// --worker on PostgreSQL) a relay carries both through the database (signal-relay.ts). Both sides
// still poll, so these only ever make things faster, never correct.
import { EventEmitter } from 'node:events';
import type { JobRow } from './jobs-repository';

/**
 * A job as its finish left it and the owner's balance right after (refund included): what the
 * waiting request answers with, so it reads neither back.
 */
export type FinishedJob = { job: JobRow; balance: number };

/** Where a process's signals also go: to the other processes (signal-relay.ts). */
export type SignalRelay = { queued(): void; finished(jobId: string, finished?: FinishedJob): void };

export class JobSignals {
  private readonly finished = new EventEmitter().setMaxListeners(0);
  private readonly wakers: Array<() => boolean> = [];
  private nextWaker = 0;
  private relay: SignalRelay | null = null;

  /** From now on every queued and finished job is also passed to `relay`. */
  relayTo(relay: SignalRelay) {
    this.relay = relay;
  }

  /**
   * A worker in this process that wants to hear about new jobs. `wake` wakes it and answers whether
   * it was idle (so it will take the job now); a busy one fetches again as soon as it is done.
   */
  onQueued(wake: () => boolean) {
    this.wakers.push(wake);
  }

  /** A job was queued: wakes a worker here, and tells the relay. */
  queued() {
    this.wakeWorker();
    this.relay?.queued();
  }

  /** Wakes one idle worker, starting from the next in turn (not all of them: all but one would find nothing). */
  wakeWorker() {
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
    this.wakeWaiter(jobId, finished);
    this.relay?.finished(jobId, finished);
  }

  /** Wakes a request here waiting for `jobId` (which reads the job itself when `finished` is absent). */
  wakeWaiter(jobId: string, finished?: FinishedJob) {
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
