import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isDatabaseConnectionError, untilDatabaseAnswers } from './connection-errors';

describe('database connection errors', () => {
  it('recognise a database that is gone, also when wrapped', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(isDatabaseConnectionError(refused)).toBe(true);
    expect(isDatabaseConnectionError(new Error('Failed query: select 1', { cause: refused }))).toBe(true);
    expect(isDatabaseConnectionError(Object.assign(new Error('terminating connection'), { code: '57P01' }))).toBe(true);
    expect(isDatabaseConnectionError(new Error('Connection terminated unexpectedly'))).toBe(true);
  });

  it('leave real bugs alone', () => {
    expect(isDatabaseConnectionError(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(false);
    expect(isDatabaseConnectionError(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDatabaseConnectionError(undefined)).toBe(false);
    expect(isDatabaseConnectionError('ECONNREFUSED')).toBe(false);
  });
});

describe('until the database answers', () => {
  const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
  // On a clock the test moves (fake timers): the tries and waits are counted the same on any machine.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('retries a write through a short outage and returns its result', async () => {
    let calls = 0;
    const waits: unknown[] = [];
    const result = untilDatabaseAnswers(
      async () => {
        calls++;
        if (calls < 3) throw refused();
        return 'written';
      },
      { maxWaitMs: 1000, delayMs: 5, onWait: (e) => waits.push(e) },
    );
    await vi.runAllTimersAsync();
    expect(await result).toBe('written');
    expect(calls).toBe(3);
    expect(waits).toHaveLength(2);
  });

  it('gives up after its time, and never retries a real error', async () => {
    let calls = 0;
    // Tries at 0, 10 and 30 ms (the wait doubles); the next would start past the 30 ms allowed.
    const gaveUp = expect(
      untilDatabaseAnswers(
        async () => {
          calls++;
          throw refused();
        },
        { maxWaitMs: 30, delayMs: 10 },
      ),
    ).rejects.toThrow(/ECONNREFUSED/);
    await vi.runAllTimersAsync();
    await gaveUp;
    expect(calls).toBe(3);
    calls = 0;
    await expect(
      untilDatabaseAnswers(
        async () => {
          calls++;
          throw new TypeError('a bug');
        },
        { maxWaitMs: 1000, delayMs: 5 },
      ),
    ).rejects.toThrow('a bug');
    expect(calls).toBe(1);
  });
});
