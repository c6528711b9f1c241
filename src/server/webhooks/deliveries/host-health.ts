// Each receiver host's recent failures, kept by the delivery loop of one process (issue 53 item 3),
// per account (the loop's key is the account and the host):
// a host whose try failed is not tried again, for any delivery to it, until its back-off ends; a host
// that failed HOST_FAILURES_TO_GIVE_UP tries in a row is given up on, every delivery to it failed
// without a try, until HOST_FAILURE_WINDOW_MS pass with no try. So a receiver that never answers
// costs a handful of tries, not ten per delivery over a day. One 2xx from the host clears it.
// In memory: a restart, or another worker, starts afresh, which only costs a few tries more.

/** Failed tries in a row to one host after which its deliveries are given up on. */
export const HOST_FAILURES_TO_GIVE_UP = 5;
/** Failures further apart than this are not "in a row": the count starts again. Also how long a given-up host stays so. */
export const HOST_FAILURE_WINDOW_MS = 15 * 60_000;

/** The key a receiver is known by: the URL's host and port, as the URL parser normalises them. */
export const receiverHostOf = (url: string) => new URL(url).host;

/** What to do with a delivery to a host now: try it, wait until its back-off ends, or give it up. */
export type HostVerdict = { kind: 'try' } | { kind: 'wait'; until: Date } | { kind: 'give-up'; failures: number };

type HostState = { failures: number; lastFailureAt: number; backoffUntil: number };

export type HostHealth = {
  verdict(host: string, now?: number): HostVerdict;
  /** Counts a failed try; answers the host's failures in a row, this one included. */
  failed(host: string, now?: number): number;
  succeeded(host: string): void;
};

/**
 * `backoffBaseMs`: the wait after a host's first failure, doubled after each next one in a row
 * (with a 10 s base: 10, 20, 40, 80 s, then given up).
 */
export function hostHealth({
  backoffBaseMs,
  windowMs = HOST_FAILURE_WINDOW_MS,
}: {
  backoffBaseMs: number;
  windowMs?: number;
}): HostHealth {
  const hosts = new Map<string, HostState>();
  // A state whose last failure left the window is forgotten, so the map holds only recent hosts.
  const current = (host: string, now: number) => {
    const state = hosts.get(host);
    if (state && now - state.lastFailureAt > windowMs) {
      hosts.delete(host);
      return undefined;
    }
    return state;
  };
  return {
    verdict(host, now = Date.now()) {
      const state = current(host, now);
      if (!state) return { kind: 'try' };
      if (state.failures >= HOST_FAILURES_TO_GIVE_UP) return { kind: 'give-up', failures: state.failures };
      if (state.backoffUntil > now) return { kind: 'wait', until: new Date(state.backoffUntil) };
      return { kind: 'try' };
    },
    failed(host, now = Date.now()) {
      const failures = (current(host, now)?.failures ?? 0) + 1;
      const backoffMs = Math.min(backoffBaseMs * 2 ** (failures - 1), windowMs);
      hosts.set(host, { failures, lastFailureAt: now, backoffUntil: now + backoffMs });
      return failures;
    },
    succeeded(host) {
      hosts.delete(host);
    },
  };
}
