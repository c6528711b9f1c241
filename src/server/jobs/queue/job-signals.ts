// Shortcuts around polling. When the web role and the worker share a process, a queued job wakes the
// worker at once and a finished job wakes the request waiting for it. Across processes (--web /
// --worker on PostgreSQL) a relay carries both through the database (signal-relay.ts). Both sides
// still poll, so these only ever make things faster, never correct.
import { EventEmitter } from 'node:events';
import type { JobRow, TakenJob } from './jobs-repository';

/**
 * A job as its finish left it and the owner's balance right after (refund included): what the
 * waiting request answers with, so it reads neither back.
 */
export type FinishedJob = { job: JobRow; balance: number };

/** Where a process's signals also go: to the other processes (signal-relay.ts). */
export type SignalRelay = { queued(): void; finished(jobId: string, finished?: FinishedJob): void };

/**
 * An idle worker slot of this process, held for one job being charged (decision 031): `run` gives it
 * the job, claimed for it by the charge; `release` lets it look for work again (the job was queued).
 * One of the two must follow, soon: the slot waits for nothing else.
 */
export type ReservedWorker = { workerId: string | null; run(taken: TakenJob): void; release(): void };

/** Finished notices nobody was waiting for yet, kept for a late waiter (a job handed over can finish first). */
const REMEMBERED_FINISHES = 256;

export class JobSignals {
  private readonly finished = new EventEmitter().setMaxListeners(0);
  private readonly deleted = new EventEmitter().setMaxListeners(0);
  private readonly wakers: Array<() => boolean> = [];
  private nextWaker = 0;
  private readonly reservers: Array<() => ReservedWorker | null> = [];
  private nextReserver = 0;
  private readonly unclaimedFinishes = new Map<string, FinishedJob | null>();
  private relay: SignalRelay | null = null;

  /**
   * `everyFinishHeard`: whether every finish of a job this process may wait for is signalled here
   * (system.ts decides at start): one process with both roles and no other worker alive, or a web
   * process hearing the workers' relay. By default not: a waiter re-reads its job on a schedule.
   */
  constructor(private readonly everyFinishHeard: () => boolean = () => false) {}

  /** When true, a waiting request re-reads its job only as a safety net (jobs/views/job-view.ts waitForJob). */
  hearsEveryFinish(): boolean {
    return this.everyFinishHeard();
  }

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

  /** A worker slot in this process that can be held for a job while it is charged (`reserve`: null when busy). */
  onIdleWorker(reserve: () => ReservedWorker | null) {
    this.reservers.push(reserve);
  }

  /** Holds an idle worker slot of this process for a job about to be charged, taking slots in turn; null if none is idle. */
  reserveWorker(): ReservedWorker | null {
    const turn = firstInTurn(this.reservers, this.nextReserver);
    if (!turn) return null;
    this.nextReserver = turn.next;
    return turn.answer;
  }

  /** A job was queued: wakes an idle worker here, or, when none is, tells the relay (another process's may be). */
  queued() {
    if (!this.wakeWorker()) this.relay?.queued();
  }

  /**
   * Wakes one idle worker, starting from the next in turn (not all of them: all but one would find
   * nothing); answers whether one was idle.
   */
  wakeWorker(): boolean {
    const turn = firstInTurn(this.wakers, this.nextWaker);
    if (turn) this.nextWaker = turn.next;
    return turn !== null;
  }

  /**
   * `finished`: the final row and balance when the finisher has them (else the waiter reads them).
   * Told to the relay only when no request here was waiting for it: the one request that waits for
   * a job is then elsewhere (or has not begun to wait, and finds it remembered here).
   */
  jobFinished(jobId: string, finished?: FinishedJob) {
    if (!this.wakeWaiter(jobId, finished)) this.relay?.finished(jobId, finished);
  }

  /**
   * Wakes a request here waiting for `jobId` (which reads the job itself when `finished` is absent);
   * answers whether one was. Otherwise the finish is remembered for a request that begins to wait late.
   */
  wakeWaiter(jobId: string, finished?: FinishedJob): boolean {
    if (this.finished.emit(jobId, finished ?? null)) return true;
    this.unclaimedFinishes.set(jobId, finished ?? null);
    if (this.unclaimedFinishes.size > REMEMBERED_FINISHES) {
      this.unclaimedFinishes.delete(this.unclaimedFinishes.keys().next().value as string);
    }
    return false;
  }

  /**
   * Jobs deleted with their account: their runs in this process stop at once (a worker elsewhere
   * stops at its run's next check, jobs/worker/job-deletion-watch.ts), and their waiters, here or relayed as a
   * finish, wake to find them gone.
   */
  jobsDeleted(jobIds: readonly string[]) {
    for (const id of jobIds) {
      this.deleted.emit(id);
      this.jobFinished(id);
    }
  }

  /** Calls `stop` if `jobId` is deleted in this process (jobsDeleted); answers how to stop listening. */
  onDeleted(jobId: string, stop: () => void): () => void {
    this.deleted.once(jobId, stop);
    return () => this.deleted.off(jobId, stop);
  }

  /** Resolves when `jobId` is reported finished in this process (with what it carried), or null after `ms`. */
  untilFinished(jobId: string, ms: number): Promise<FinishedJob | null> {
    if (this.unclaimedFinishes.has(jobId)) {
      const finished = this.unclaimedFinishes.get(jobId) ?? null;
      this.unclaimedFinishes.delete(jobId);
      return Promise.resolve(finished);
    }
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

/**
 * Asks `candidates` in turn, from `from` round to the one before it, until one answers (truthy): its
 * answer and where the next turn starts (after it). Null when none answers.
 */
function firstInTurn<T>(candidates: Array<() => T>, from: number): { answer: NonNullable<T>; next: number } | null {
  const count = candidates.length;
  for (let i = 0; i < count; i++) {
    const answer = candidates[(from + i) % count]?.();
    if (answer) return { answer, next: (from + i + 1) % count };
  }
  return null;
}
