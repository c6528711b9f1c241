// A worker slot between jobs: it sleeps until its poll or a wake, and one held for a job being
// charged here waits for that job (or its release) whatever the poll or a wake says.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { finishedJobRow } from '../../../../test/support/tool-fixtures';
import type { TakenJob } from '../queue/jobs-repository';
import { Slot } from './worker-slot';

const POLL_MS = 1000;
const taken: TakenJob = { jobId: 'j1', job: finishedJobRow('j1'), moreWaiting: false };

/** What the slot's idle() answered so far: undefined while it still waits. */
function watch(promise: Promise<TakenJob | null>) {
  const seen: { answer?: TakenJob | null } = {};
  void promise.then((answer) => {
    seen.answer = answer;
  });
  return seen;
}
const settle = () => vi.advanceTimersByTimeAsync(0);

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('a worker slot', () => {
  it('sleeps until its poll, or until woken', async () => {
    const slot = new Slot(POLL_MS);
    const polled = watch(slot.idle());
    await vi.advanceTimersByTimeAsync(POLL_MS - 1);
    expect(polled).toEqual({});
    await vi.advanceTimersByTimeAsync(1);
    expect(polled).toEqual({ answer: null });

    const woken = watch(slot.idle());
    expect(slot.wake()).toBe(true); // idle: it takes the job
    await settle();
    expect(woken).toEqual({ answer: null });
  });

  it('looks again at once when a wake came while it was looking', async () => {
    const slot = new Slot(POLL_MS);
    slot.looking();
    slot.busy = true;
    expect(slot.wake()).toBe(false); // busy: another slot should take the job
    slot.busy = false;
    const next = watch(slot.idle());
    await settle();
    expect(next).toEqual({ answer: null });
  });

  it('can be held only while idle, and only once', () => {
    const slot = new Slot(POLL_MS);
    expect(slot.reserve()).toBe(false); // not waiting: it is looking or running a job
    void slot.idle();
    expect(slot.reserve()).toBe(true);
    expect(slot.reserve()).toBe(false);
  });

  it('held, runs the job handed over, ignoring its poll and wakes meanwhile, then looks again', async () => {
    const slot = new Slot(POLL_MS);
    const held = watch(slot.idle());
    expect(slot.reserve()).toBe(true);
    await vi.advanceTimersByTimeAsync(5 * POLL_MS);
    expect(slot.wake()).toBe(false); // a job queued meanwhile goes to another slot
    await settle();
    expect(held).toEqual({});
    slot.handOver(taken);
    await settle();
    expect(held).toEqual({ answer: taken });
    // The wake that came while it was held: after the job, it looks again at once.
    const after = watch(slot.idle());
    await settle();
    expect(after).toEqual({ answer: null });
    expect(slot.reserve()).toBe(false);
  });

  it('held, and released (the job was queued or not made), looks for work again', async () => {
    const slot = new Slot(POLL_MS);
    const held = watch(slot.idle());
    expect(slot.reserve()).toBe(true);
    slot.release();
    await settle();
    expect(held).toEqual({ answer: null });
    // No longer held: the next sleep ends at its poll again, and it may be held again.
    const next = watch(slot.idle());
    expect(slot.reserve()).toBe(true);
    slot.release();
    await settle();
    expect(next).toEqual({ answer: null });
  });
});
