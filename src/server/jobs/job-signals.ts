// In-process shortcuts around polling. When the web role and the worker share a process, a queued
// job wakes the worker at once and a finished job wakes the request waiting for it. Across
// processes (--web / --worker) nothing is signalled and both sides fall back to polling, so these
// only ever make things faster, never correct.
import { EventEmitter } from 'node:events';

export class JobSignals {
  private readonly finished = new EventEmitter().setMaxListeners(0);
  private readonly wakers: Array<() => void> = [];

  /** A worker in this process that wants to hear about new jobs. */
  onQueued(wake: () => void) {
    this.wakers.push(wake);
  }

  queued() {
    for (const wake of this.wakers) wake();
  }

  jobFinished(jobId: string) {
    this.finished.emit(jobId);
  }

  /** Resolves when `jobId` is reported finished in this process, or after `ms`. */
  untilFinished(jobId: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.finished.off(jobId, done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.finished.once(jobId, done);
    });
  }
}
