import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { waitAtMost, wakeableSleep } from './loop-timing';

// On a clock the test moves (fake timers): each sleep and wait ends at its time or at its event,
// whatever the machine's speed.
beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Whether `promise` has settled once the microtasks queued so far have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => {
    done = true;
  });
  await vi.advanceTimersByTimeAsync(0);
  return done;
}

describe('wakeableSleep', () => {
  it('sleeps its time when nobody wakes it', async () => {
    const { sleep } = wakeableSleep();
    const sleeping = sleep(60);
    await vi.advanceTimersByTimeAsync(59);
    expect(await settled(sleeping)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(sleeping)).toBe(true);
  });

  it('ends a sleep under way at a wake-up', async () => {
    const pause = wakeableSleep();
    const sleeping = pause.sleep(10_000);
    await vi.advanceTimersByTimeAsync(20);
    expect(await settled(sleeping)).toBe(false);
    pause.wake();
    expect(await settled(sleeping)).toBe(true);
  });

  it('keeps a wake-up that came between sleeps for the next one, once', async () => {
    const pause = wakeableSleep();
    pause.wake();
    expect(await settled(pause.sleep(10_000))).toBe(true);
    const again = pause.sleep(50);
    await vi.advanceTimersByTimeAsync(49);
    expect(await settled(again)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settled(again)).toBe(true);
  });
});

describe('waitAtMost', () => {
  it('answers true for work that ends in time', async () => {
    const answer = waitAtMost(new Promise((resolve) => setTimeout(resolve, 10)), 5_000);
    await vi.advanceTimersByTimeAsync(10);
    expect(await answer).toBe(true);
    expect(vi.getTimerCount()).toBe(0); // its own timer cleared
  });

  it('gives up on work that takes longer, and answers false', async () => {
    const answer = waitAtMost(new Promise(() => {}), 50);
    await vi.advanceTimersByTimeAsync(49);
    expect(await settled(answer)).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await answer).toBe(false);
  });
});
