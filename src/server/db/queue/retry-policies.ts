// Every queue's retry policy, in one table (decisions 045 and 075): how many tries a row gets and how
// long each retry waits. The queues themselves are row-queue.ts over their own tables.

export type RetryPolicy = {
  /** Tries a row gets at most (claims: the first and the retries); then it is claimed no more. */
  maxAttempts: number;
  /** The first retry's delay in seconds; a setting may replace it (TOOL_RETRY_DELAY_SECONDS, WEBHOOK_RETRY_BASE_SECONDS). */
  baseSeconds: number;
  /** Each next retry waits this many times the one before. */
  factor: number;
  /** Each delay up to twice itself at random, so that rows that failed together are not retried together. */
  jitter: boolean;
  /** No retry waits longer than this, whatever the base a setting gives. */
  capSeconds: number;
};

export const RETRY_POLICIES = {
  /** A tool run that threw (a busy provider, storage that failed): 5-10 s, then 10-20 s; then refunded. */
  toolJob: { maxAttempts: 3, baseSeconds: 5, factor: 2, jitter: true, capSeconds: 60 * 60 },
  /** The customer and first mail after a sign-up: 5-10 s, doubled ten times, about 1.5-3 hours in all. */
  accountSetup: { maxAttempts: 11, baseSeconds: 5, factor: 2, jitter: true, capSeconds: 2 * 60 * 60 },
  /** A caller's webhook: 10 s, 30 s, 1.5 min ... 18 h, about 27 hours from the first try to the last. */
  webhookDelivery: { maxAttempts: 10, baseSeconds: 10, factor: 3, jitter: false, capSeconds: 24 * 60 * 60 },
} as const satisfies Record<string, RetryPolicy>;

/** The policy with the base a setting gives, or its own when the setting is not set. */
export const withBaseSeconds = (policy: RetryPolicy, baseSeconds: number | undefined): RetryPolicy =>
  baseSeconds === undefined ? policy : { ...policy, baseSeconds };
