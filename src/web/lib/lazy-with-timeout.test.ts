import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CHUNK_LOAD_TIMEOUT_MS } from '../../contract/routes';
import { ChunkLoadTimeoutError, lazyWithTimeout } from './lazy-with-timeout';

describe('lazyWithTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('uses the spec’s 120 second chunk load timeout by default', () => {
    expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000);
  });

  it('rejects with a clear error once 120 s pass without the chunk', async () => {
    const load = lazyWithTimeout(() => new Promise<never>(() => {}));
    let settled: unknown = 'pending';
    const result = load().then(
      () => 'resolved',
      (error: unknown) => error,
    );
    void result.then((value) => {
      settled = value;
    });

    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(settled).toBe('pending');

    await vi.advanceTimersByTimeAsync(1);
    const error = await result;
    expect(error).toBeInstanceOf(ChunkLoadTimeoutError);
    expect((error as Error).message).toBe(
      'This page did not finish loading within 120 seconds. Check your connection and reload the page.',
    );
  });

  it('resolves with the module when the import wins, and leaves no timer behind', async () => {
    const module = { name: 'chunk' };
    const load = lazyWithTimeout(() => Promise.resolve(module));
    await expect(load()).resolves.toBe(module);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('resolves a chunk that arrives just before the deadline', async () => {
    const load = lazyWithTimeout(
      () => new Promise<string>((resolve) => setTimeout(() => resolve('chunk'), CHUNK_LOAD_TIMEOUT_MS - 10)),
    );
    const result = load();
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS);
    await expect(result).resolves.toBe('chunk');
  });

  it('passes a failed import’s own error through', async () => {
    const failure = new TypeError('Failed to fetch dynamically imported module');
    const load = lazyWithTimeout(() => Promise.reject(failure));
    await expect(load()).rejects.toBe(failure);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('honours a custom timeout', async () => {
    const result = lazyWithTimeout(() => new Promise<never>(() => {}), 5_000)();
    const assertion = expect(result).rejects.toThrow('within 5 seconds');
    await vi.advanceTimersByTimeAsync(5_000);
    await assertion;
  });
});
