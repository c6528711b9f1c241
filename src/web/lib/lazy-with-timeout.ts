import { CHUNK_LOAD_TIMEOUT_MS } from '../../contract/routes';

/** Raised when a lazily loaded chunk does not arrive in time; the router's error screen shows it. */
export class ChunkLoadTimeoutError extends Error {
  override name = 'ChunkLoadTimeoutError';

  constructor(readonly timeoutMs: number) {
    super(
      `This page did not finish loading within ${Math.round(timeoutMs / 1000)} seconds. Check your connection and reload the page.`,
    );
  }
}

/**
 * Wraps a dynamic import so that it gives up after `timeoutMs` (the spec's chunk load timeout).
 * The returned loader resolves with the module when the import wins the race, rejects with the
 * import's own error when it fails, and rejects with a ChunkLoadTimeoutError when the timer wins.
 */
export function lazyWithTimeout<T>(
  load: () => Promise<T>,
  timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS,
): () => Promise<T> {
  return () =>
    new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new ChunkLoadTimeoutError(timeoutMs)), timeoutMs);
      load().then(
        (module) => {
          clearTimeout(timer);
          resolve(module);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
}
