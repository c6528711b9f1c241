import { describe, expect, it } from 'vitest';
import { type FinishedJob, JobSignals } from './job-signals';

/**
 * What `promise` answers if it has settled by now, or 'still waiting': a wait ended by its event,
 * not by its timer, whatever the machine's speed.
 */
const settledNow = <T>(promise: Promise<T>) => Promise.race([promise, Promise.resolve('still waiting' as const)]);

/** Workers that record their wakes; `busy` ones answer that they cannot take the job now. */
function workers(signals: JobSignals, busy: boolean[]) {
  const woken = busy.map(() => 0);
  busy.forEach((_, i) => {
    signals.onQueued(() => {
      woken[i] = (woken[i] ?? 0) + 1;
      return !busy[i];
    });
  });
  return woken;
}

describe('waking workers for a queued job', () => {
  it('wakes one idle worker per job, in turn', () => {
    const signals = new JobSignals();
    const woken = workers(signals, [false, false, false]);
    signals.queued();
    expect(woken).toEqual([1, 0, 0]);
    signals.queued();
    signals.queued();
    expect(woken).toEqual([1, 1, 1]);
  });

  it('passes over busy workers to an idle one', () => {
    const signals = new JobSignals();
    const busy = [true, false];
    const woken = workers(signals, busy);
    signals.queued();
    // The busy one heard it too (it fetches again when done); the idle one takes the job.
    expect(woken).toEqual([1, 1]);
  });

  it('tells every worker when all are busy, so the first one free fetches at once', () => {
    const signals = new JobSignals();
    const woken = workers(signals, [true, true]);
    signals.queued();
    expect(woken).toEqual([1, 1]);
  });

  it('wakes the request waiting for a job when it finishes', async () => {
    const signals = new JobSignals();
    const waiting = signals.untilFinished('job-1', 5_000);
    signals.jobFinished('job-1');
    // Woken by the finish itself, not by its 5 s timeout (which would also answer null).
    expect(await settledNow(waiting)).toBeNull();
  });

  it('hands the waiting request the finished job and balance it was given, and nothing on a timeout', async () => {
    const signals = new JobSignals();
    const finished = { job: { id: 'job-2', status: 'succeeded' } as FinishedJob['job'], balance: 7 };
    const waiting = signals.untilFinished('job-2', 5_000);
    const other = signals.untilFinished('job-3', 10);
    signals.jobFinished('job-2', finished);
    expect(await waiting).toBe(finished);
    expect(await other).toBeNull();
  });

  it('keeps a finish that came before its waiter, for that waiter only', async () => {
    const signals = new JobSignals();
    const finished = { job: { id: 'job-4', status: 'succeeded' } as FinishedJob['job'], balance: 3 };
    signals.jobFinished('job-4', finished); // a job handed to a worker here may finish before its request waits
    expect(await settledNow(signals.untilFinished('job-4', 5_000))).toBe(finished);
    expect(await signals.untilFinished('job-4', 10)).toBeNull(); // handed out once
  });
});

describe('holding an idle worker for a job being charged', () => {
  /** Slots that can be held while `idle[i]`; records what each was handed or released. */
  function slots(signals: JobSignals, idle: boolean[]) {
    const events: string[] = [];
    idle.forEach((_, i) => {
      signals.onIdleWorker(() =>
        idle[i]
          ? {
              workerId: `lease-${i}`,
              run: (taken) => events.push(`${i} runs ${taken.jobId}`),
              release: () => events.push(`${i} released`),
            }
          : null,
      );
    });
    return events;
  }

  it('holds idle slots in turn, passes over busy ones, and answers null when none is idle', () => {
    const signals = new JobSignals();
    const idle = [true, false, true];
    const events = slots(signals, idle);
    expect(signals.reserveWorker()?.workerId).toBe('lease-0');
    expect(signals.reserveWorker()?.workerId).toBe('lease-2');
    signals.reserveWorker()?.release();
    expect(events).toEqual(['0 released']);
    idle.fill(false);
    expect(signals.reserveWorker()).toBeNull();
    expect(new JobSignals().reserveWorker()).toBeNull();
  });
});

describe('telling other processes (the relay)', () => {
  /** Signals whose relay records what it was told. */
  function relayed() {
    const signals = new JobSignals();
    const told: string[] = [];
    signals.relayTo({ queued: () => told.push('queued'), finished: (jobId) => told.push(`finished ${jobId}`) });
    return { signals, told };
  }

  it('tells of a queued job only when no worker here was idle to take it', () => {
    const { signals, told } = relayed();
    const busy = [false, true];
    workers(signals, busy);
    signals.queued();
    expect(told).toEqual([]);
    busy[0] = true;
    signals.queued();
    expect(told).toEqual(['queued']);
  });

  it('tells of a finish only when no request here waits for it', async () => {
    const { signals, told } = relayed();
    const waiting = signals.untilFinished('job-5', 5_000);
    signals.jobFinished('job-5');
    await waiting;
    expect(told).toEqual([]);
    signals.jobFinished('job-6'); // its request waits in another process (or has not begun to wait)
    expect(told).toEqual(['finished job-6']);
  });
});
