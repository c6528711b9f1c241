// The worker's loop over webhook deliveries (decision 059): claims a due one (its job has ended),
// builds the event from the job as its owner reads it, signs it with the account's secret and POSTs
// it; records the outcome. A few tries run at once, so one slow receiver (10 s a try) holds up no
// other. All its state is in rows: a restart, or another worker, carries on where it stopped.
import type { JobDetail } from '../../../contract/tool-responses';
import type { WebhookEvent } from '../../../contract/webhooks';
import type { AppDb } from '../../db/client';
import { findJob, type JobRow } from '../../jobs/queue/jobs-repository';
import { viewJob } from '../../jobs/views/job-view';
import type { Logger } from '../../log';
import { waitAtMost, wakeableSleep } from '../../loops/loop-timing';
import { webhookSecretOf } from '../signing-secrets';
import { type ClaimedDelivery, claimNextDelivery, recordTry, type TryOutcome } from './delivery-repository';
import { sendWebhook } from './send-webhook';

export type WebhookDeliveryDeps = { db: AppDb; logger: Logger };

export type WebhookDeliverySettings = {
  /** Seconds between looks for due deliveries (QUEUE_POLL_SECONDS). */
  pollingIntervalSeconds: number;
  /** The first retry's delay; each next is three times the one before (WEBHOOK_RETRY_BASE_SECONDS). */
  retryBaseSeconds: number;
  /** Production: https only, and never to a local or private address (checked at each try). */
  production: boolean;
};

/** Tries one process runs at once. */
const CONCURRENT_TRIES = 4;
/** How long a stop waits for the tries in hand (each ends within 10 s) before leaving them to a retry. */
const STOP_WAIT_MS = 11_000;

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

/** One claimed try: the job read, signed, sent, and its outcome recorded. */
async function deliver(deps: WebhookDeliveryDeps, settings: WebhookDeliverySettings, claim: ClaimedDelivery) {
  const { db, logger } = deps;
  const job = await findJob(db, claim.jobId);
  // Deleted with its account since the claim: its delivery went with it.
  if (!job?.webhookUrl) return;
  const secret = await webhookSecretOf(db, job.userId);
  const body = JSON.stringify(webhookEventOf(job));
  const outcome: TryOutcome = await sendWebhook(
    job.webhookUrl,
    { id: webhookIdOf(job), body, secret },
    { production: settings.production },
  );
  const left = await recordTry(db, claim, outcome, settings.retryBaseSeconds);
  if (left === 'failed') {
    logger.warn('webhook delivery failed on its last try', { jobId: job.id, attempts: claim.attempt, outcome });
  } else if (!outcome.delivered) {
    logger.info('webhook delivery try failed; it is retried', { jobId: job.id, attempt: claim.attempt, outcome });
  }
}

export type WebhookDeliveryLoop = { stop(): Promise<void> };

/** Starts the loop; `stop` ends it, waiting (up to 11 s) for the tries in hand. */
export function startWebhookDeliveries(
  deps: WebhookDeliveryDeps,
  settings: WebhookDeliverySettings,
): WebhookDeliveryLoop {
  let stopping = false;
  const pause = wakeableSleep();
  const inHand = new Set<Promise<void>>();
  const loop = (async () => {
    while (!stopping) {
      if (inHand.size >= CONCURRENT_TRIES) {
        await Promise.race(inHand);
        continue;
      }
      let claim: ClaimedDelivery | null = null;
      try {
        claim = await claimNextDelivery(deps.db);
      } catch (error) {
        deps.logger.error('could not take the next webhook delivery', { error });
      }
      if (!claim) {
        await pause.sleep(settings.pollingIntervalSeconds * 1000);
        continue;
      }
      const jobId = claim.jobId;
      const run = deliver(deps, settings, claim)
        .catch((error) => {
          // Left claimed: due again once its claim lapses.
          deps.logger.error('a webhook delivery try could not be made or recorded', { jobId, error });
        })
        .finally(() => {
          inHand.delete(run);
          pause.wake();
        });
      inHand.add(run);
    }
  })();
  return {
    async stop() {
      stopping = true;
      pause.wake();
      if (!(await waitAtMost(Promise.all([loop, ...inHand]), STOP_WAIT_MS)))
        deps.logger.warn('stopped with webhook deliveries in hand; they are retried', {});
    },
  };
}
