// Errors that mean "the database is not reachable right now" (a restart, a failover, a network
// blip), as opposed to a bug. The server rides these out: requests fail with a clear message,
// health says 503, and everything resumes when the database is back.

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH']);
/** PostgreSQL's admin_shutdown, crash_shutdown, cannot_connect_now (SQLSTATE class 57P). */
const SHUTDOWN_STATES = new Set(['57P01', '57P02', '57P03']);
const MESSAGES = [/Connection terminated/i, /Client has encountered a connection error/i, /connection.*(closed|lost)/i];

/** An error and the errors it wraps (`cause`), outermost first: drivers' codes sit inside drizzle's. */
export function* errorChain(error: unknown): Generator<{ code?: unknown; message?: unknown }> {
  for (
    let e = error as { code?: unknown; message?: unknown; cause?: unknown } | undefined;
    e;
    e = e.cause as typeof e
  ) {
    if (typeof e !== 'object') return;
    yield e;
  }
}

export function isDatabaseConnectionError(error: unknown): boolean {
  return [...errorChain(error)].some(
    (e) =>
      (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SHUTDOWN_STATES.has(e.code))) ||
      (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))),
  );
}

/**
 * Runs `write` until it stops failing with a connection error, waiting between tries, for at most
 * `maxWaitMs`. A worker that has a provider's answer in hand keeps it through a database restart
 * instead of dropping it (the job would otherwise wait for its expiry and run again).
 */
export async function untilDatabaseAnswers<T>(
  write: () => Promise<T>,
  options: { maxWaitMs: number; onWait?: (error: unknown) => void; delayMs?: number },
): Promise<T> {
  const deadline = Date.now() + options.maxWaitMs;
  let delay = options.delayMs ?? 250;
  for (;;) {
    try {
      return await write();
    } catch (error) {
      if (!isDatabaseConnectionError(error) || Date.now() + delay > deadline) throw error;
      options.onWait?.(error);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 5000);
    }
  }
}
