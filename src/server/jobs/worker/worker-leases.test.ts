import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppDb } from '../../db/client';
import { quietLogger } from '../../log';
import { startWorkerLease } from './worker-leases';

/** A database whose heartbeat writes succeed or fail as the test says. */
function fakeDatabase() {
  /** `others`: the live leases of other workers that a heartbeat counts. */
  const state = { up: true, beats: 0, deletes: 0, others: 0 };
  const write = () => (state.up ? Promise.resolve() : Promise.reject(new Error('connection refused')));
  const db = {
    insert: () => ({
      values: () => ({
        onConflictDoUpdate: () => ({
          returning: () => {
            state.beats++;
            return write().then(() => [{ others: state.others }]);
          },
        }),
      }),
    }),
    delete: () => ({
      where: () => {
        state.deletes++;
        return write();
      },
    }),
  };
  return { db: db as unknown as AppDb, state };
}

describe('a worker lease', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('renews itself six times a lease and may judge other workers from the start', async () => {
    const { db, state } = fakeDatabase();
    const lease = await startWorkerLease(db, quietLogger(), { leaseSeconds: 30, onlyProcess: false });
    expect(lease.canJudgeOthers()).toBe(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(state.beats).toBe(1 + 6);
    expect(lease.canJudgeOthers()).toBe(true);
    await lease.stop();
  });

  it('after a database outage, judges nobody until its own heartbeats have held for a whole lease', async () => {
    const { db, state } = fakeDatabase();
    const lease = await startWorkerLease(db, quietLogger(), { leaseSeconds: 30, onlyProcess: false });
    state.up = false;
    await vi.advanceTimersByTimeAsync(20_000);
    // Its own lease is going stale too: everyone else's looks lapsed for the same reason.
    expect(lease.canJudgeOthers()).toBe(false);
    state.up = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(lease.canJudgeOthers()).toBe(false);
    await vi.advanceTimersByTimeAsync(25_000);
    expect(lease.canJudgeOthers()).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(lease.canJudgeOthers()).toBe(true);
    await lease.stop();
  });

  it('knows at each heartbeat whether other workers are alive, and assumes they are when it cannot tell', async () => {
    const { db, state } = fakeDatabase();
    state.others = 1;
    const lease = await startWorkerLease(db, quietLogger(), { leaseSeconds: 30, onlyProcess: false });
    expect(lease.alone()).toBe(false);
    state.others = 0;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(lease.alone()).toBe(true);
    state.up = false;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(lease.alone()).toBe(false);
    state.up = true;
    await vi.advanceTimersByTimeAsync(5_000);
    expect(lease.alone()).toBe(true);
    await lease.stop();
  });

  it('stops renewing and removes itself on stop; on the embedded database it removes its predecessors', async () => {
    const { db, state } = fakeDatabase();
    const lease = await startWorkerLease(db, quietLogger(), { leaseSeconds: 30, onlyProcess: true });
    expect(state.deletes).toBe(1);
    await lease.stop();
    expect(state.deletes).toBe(2);
    const beats = state.beats;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(state.beats).toBe(beats);
  });
});
