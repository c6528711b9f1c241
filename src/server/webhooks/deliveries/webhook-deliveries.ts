// The worker's loop over webhook deliveries (decision 059): claims a due one (its job has ended),
// builds the event from the job as its owner reads it, signs it with the account's secret and POSTs
// it; records the outcome. A few tries run at once, so one slow receiver (10 s a try) holds up no
// other; an account holds at most ACCOUNT_SHARE of them, and a receiver host that fails is backed
// off and then given up on (host-health.ts), so one account's receivers that never answer delay no
// other account's webhooks (issue 53). The deliveries' state is in rows: a restart, or another
// worker, carries on where it stopped.
import type { JobDetail } from '../../../contract/tool-responses';
import type { WebhookEvent } from '../../../contract/webhooks';
import type { AppDb } from '../../db/client';
import { RETRY_POLICIES } from '../../db/queue/retry-policies';
import { findJob, type JobRow } from '../../jobs/queue/jobs-repository';
import { viewJob } from '../../jobs/views/job-view';
import type { Logger } from '../../log';
import { waitAtMost, wakeableSleep } from '../../loops/loop-timing';
import type { Metrics } from '../../observability/metrics';
import { webhookSecretOf } from '../signing-secrets';
import {
  type ClaimedDelivery,
  claimNextDelivery,
  deferDelivery,
  givenUpError,
  giveUpDelivery,
  recordTry,
} from './delivery-repository';
import { HOST_FAILURES_TO_GIVE_UP, type HostHealth, hostHealth, receiverHostOf } from './host-health';
import { type SentOutcome, sendWebhook, WEBHOOK_CONNECT_TIMEOUT_MS, WEBHOOK_TRY_TIMEOUT_MS } from './send-webhook';

/** How long a try may take: to connect, and in all (send-webhook.ts). Tests make them short. */
export type WebhookTimeouts = { connectMs: number; tryMs: number };

export type WebhookDeliveryDeps = {
  db: AppDb;
  logger: Logger;
  timeouts?: WebhookTimeouts;
  /** Counts each try's outcome (GET /metrics). */
  metrics?: Metrics;
};

export type WebhookDeliverySettings = {
  /** Seconds between looks for due deliveries (QUEUE_POLL_SECONDS). */
  pollingIntervalSeconds: number;
  /** The first retry's delay; each next is three times the one before (WEBHOOK_RETRY_BASE_SECONDS; unset: the retry policy's). */
  retryBaseSeconds: number | undefined;
  /** Production: https only, and only to globally routable addresses, never this server's (checked at each try). */
  production: boolean;
};

/** Tries one process runs at once. */
const CONCURRENT_TRIES = 4;
/** Tries one account's deliveries may hold of those at once: the others stay free for other accounts. */
export const ACCOUNT_SHARE = 2;
/** How much longer than a try a stop waits for the tries in hand before leaving them to a retry. */
const STOP_GRACE_MS = 1_000;

/** The id a receiver de-duplicates on: one per job ending, the same on every try. */
export const webhookIdOf = (job: Pick<JobRow, 'id' | 'status'>) => `job_${job.id}_${job.status}`;

/** The event of an ended job: its type, when it ended, and the job as GET /api/jobs/:id answers it. */
export function webhookEventOf(job: JobRow): WebhookEvent {
  const status = job.status === 'succeeded' ? 'succeeded' : 'failed';
  const data = {
    ...viewJob(job),
    status,
    queuePosition: null,
    typicalSeconds: null,
    secondsLeft: null,
  } satisfies JobDetail;
  return {
    type: `job.${status}`,
    timestamp: (job.finishedAt ?? job.createdAt).toISOString(),
    data,
  };
}

/**
 * One claimed try: the job read, signed, sent, and its outcome recorded. Unless its host is backing
 * off (the delivery waits until it ends, untried) or given up on (the delivery fails, untried).
 */
async function deliver(
  deps: WebhookDeliveryDeps,
  settings: WebhookDeliverySettings,
  hosts: HostHealth,
  claim: ClaimedDelivery,
) {
  const { db, logger } = deps;
  const job = await findJob(db, claim.jobId);
  // Deleted with its account since the claim: its delivery went with it.
  if (!job?.webhookUrl) return;
  const host = receiverHostOf(job.webhookUrl);
  // Judged per account and host: one account's failing path on a shared host (a relay service) backs
  // off and gives up that account's deliveries only, never another account's to the same host.
  const receiver = `${job.userId} ${host}`;
  const verdict = hosts.verdict(receiver);
  if (verdict.kind === 'wait') return deferDelivery(db, claim, verdict.until);
  if (verdict.kind === 'give-up') {
    deps.metrics?.webhookDelivery('failed');
    return giveUpDelivery(db, claim, { error: givenUpError(host, verdict.failures), tried: false });
  }
  const secret = await webhookSecretOf(db, job.userId);
  const body = JSON.stringify(webhookEventOf(job));
  const timeouts = deps.timeouts ?? { connectMs: WEBHOOK_CONNECT_TIMEOUT_MS, tryMs: WEBHOOK_TRY_TIMEOUT_MS };
  const outcome: SentOutcome = await sendWebhook(
    job.webhookUrl,
    { id: webhookIdOf(job), body, secret },
    { production: settings.production, timeoutMs: timeouts.tryMs, connectTimeoutMs: timeouts.connectMs },
  );
  if (outcome.delivered) hosts.succeeded(receiver);
  else {
    const failures = hosts.failed(receiver);
    if (failures >= HOST_FAILURES_TO_GIVE_UP) {
      logger.warn('webhook host failed too many tries in a row; its deliveries are given up', {
        jobId: job.id,
        host,
        failures,
        outcome,
      });
      deps.metrics?.webhookDelivery('failed');
      return giveUpDelivery(db, claim, { error: givenUpError(host, failures), tried: true, status: outcome.status });
    }
  }
  const left = await recordTry(db, claim, outcome, settings.retryBaseSeconds);
  if (left) deps.metrics?.webhookDelivery(left === 'pending' ? 'retrying' : left);
  if (left === 'failed') {
    logger.warn('webhook delivery failed on its last try', { jobId: job.id, attempts: claim.attempt, outcome });
  } else if (!outcome.delivered) {
    logger.info('webhook delivery try failed; it is retried', { jobId: job.id, attempt: claim.attempt, outcome });
  }
}

export type WebhookDeliveryLoop = { stop(): Promise<void> };

/** Starts the loop; `stop` ends it, waiting (up to a try's timeout and a second) for the tries in hand. */
export function startWebhookDeliveries(
  deps: WebhookDeliveryDeps,
  settings: WebhookDeliverySettings,
): WebhookDeliveryLoop {
  let stopping = false;
  const pause = wakeableSleep();
  const inHand = new Set<Promise<void>>();
  // Tries in hand by account: an account at its share is skipped by the claim.
  const triesOf = new Map<string, number>();
  const retryBaseSeconds = settings.retryBaseSeconds ?? RETRY_POLICIES.webhookDelivery.baseSeconds;
  const hosts = hostHealth({ backoffBaseMs: retryBaseSeconds * 1000 });
  const loop = (async () => {
    while (!stopping) {
      if (inHand.size >= CONCURRENT_TRIES) {
        await Promise.race(inHand);
        continue;
      }
      let claim: ClaimedDelivery | null = null;
      try {
        const skipAccounts = [...triesOf].filter(([, tries]) => tries >= ACCOUNT_SHARE).map(([userId]) => userId);
        claim = await claimNextDelivery(deps.db, { skipAccounts });
      } catch (error) {
        deps.logger.error('could not take the next webhook delivery', { error });
      }
      if (!claim) {
        await pause.sleep(settings.pollingIntervalSeconds * 1000);
        continue;
      }
      const { jobId, userId } = claim;
      triesOf.set(userId, (triesOf.get(userId) ?? 0) + 1);
      const run = deliver(deps, settings, hosts, claim)
        .catch((error) => {
          // Left claimed: due again once its claim lapses.
          deps.logger.error('a webhook delivery try could not be made or recorded', { jobId, error });
        })
        .finally(() => {
          inHand.delete(run);
          const left = (triesOf.get(userId) ?? 1) - 1;
          if (left > 0) triesOf.set(userId, left);
          else triesOf.delete(userId);
          pause.wake();
        });
      inHand.add(run);
    }
  })();
  return {
    async stop() {
      stopping = true;
      pause.wake();
      const tryMs = deps.timeouts?.tryMs ?? WEBHOOK_TRY_TIMEOUT_MS;
      if (!(await waitAtMost(Promise.all([loop, ...inHand]), tryMs + STOP_GRACE_MS)))
        deps.logger.warn('stopped with webhook deliveries in hand; they are retried', {});
    },
  };
}
