import { describe, expect, it } from 'vitest';
import { waitAtMost, wakeableSleep } from './loop-timing';

describe('wakeableSleep', () => {
  it('sleeps its time when nobody wakes it', async () => {
    const { sleep } = wakeableSleep();
    const started = Date.now();
    await sleep(60);
    expect(Date.now() - started).toBeGreaterThanOrEqual(55);
  });

  it('ends a sleep under way at a wake-up', async () => {
    const pause = wakeableSleep();
    const started = Date.now();
    const sleeping = pause.sleep(10_000);
    setTimeout(() => pause.wake(), 20);
    await sleeping;
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('keeps a wake-up that came between sleeps for the next one, once', async () => {
    const pause = wakeableSleep();
    pause.wake();
    const started = Date.now();
    await pause.sleep(10_000);
    expect(Date.now() - started).toBeLessThan(5_000);
    const again = Date.now();
    await pause.sleep(50);
    expect(Date.now() - again).toBeGreaterThanOrEqual(45);
  });
});

describe('waitAtMost', () => {
  it('answers true for work that ends in time', async () => {
    expect(await waitAtMost(new Promise((resolve) => setTimeout(resolve, 10)), 5_000)).toBe(true);
  });

  it('gives up on work that takes longer, and answers false', async () => {
    const started = Date.now();
    expect(await waitAtMost(new Promise(() => {}), 50)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
