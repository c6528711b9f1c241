// POST /api/webhooks/replicate: Replicate's call when a prediction created in webhook mode is done.
// It has no Origin (mounted before the Origin check); instead the raw body's signature is verified,
// each delivery is handled once (webhook-id in webhook_events), and the job is found by its
// prediction id. Unknown predictions are answered 200 and ignored, so Replicate stops retrying.
import { and, eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { jobs } from '../db/schema';
import { isTerminalPrediction } from '../inference/replicate/replicate-provider';
import { verifyReplicateWebhook } from '../inference/replicate/webhook-signature';
import { completeToolJob, type JobCompletionDeps } from '../jobs/worker/job-runner';
import { claimWebhookEvent, releaseWebhookEvent } from './webhook-events';

export type ReplicateWebhookDeps = JobCompletionDeps & {
  /** `whsec_...`; null when webhook mode is off (the route then answers 404). */
  secret: string | null;
};

/** A prediction is a few kB (input and output URLs); our image inputs go up as files or small data URIs. */

export function replicateWebhookRoutes(deps: ReplicateWebhookDeps) {
  const { db, secret } = deps;
  return new Hono().post(
    '/replicate',
    // Bodies over 1 MB are refused before this, for every API route (security/body-limit.ts).
    async (c) => {
      if (!secret) return c.json({ error: 'Replicate webhooks are not enabled here' }, 404);
      const rawBody = Buffer.from(await c.req.arrayBuffer());
      const eventId = c.req.header('webhook-id') ?? '';
      const signed = verifyReplicateWebhook({
        id: eventId,
        timestamp: c.req.header('webhook-timestamp') ?? '',
        signatureHeader: c.req.header('webhook-signature') ?? '',
        rawBody,
        secret,
      });
      if (!signed) return c.json({ error: 'Invalid or expired webhook signature' }, 401);
      let prediction: unknown;
      try {
        prediction = JSON.parse(rawBody.toString('utf8'));
      } catch {
        return c.json({ error: 'body: must be JSON' }, 400);
      }

      if (!(await claimWebhookEvent(db, 'replicate', eventId))) return c.json({ received: true, duplicate: true });
      try {
        // Only `completed` events are asked for; anything else has nothing to finish.
        if (!isTerminalPrediction(prediction)) return c.json({ received: true, ignored: 'not finished' });
        const [job] = await db
          .select({ id: jobs.id })
          .from(jobs)
          .where(and(eq(jobs.providerRef, prediction.id), eq(jobs.provider, 'replicate')));
        if (!job) return c.json({ received: true, ignored: 'unknown prediction' });
        await completeToolJob(deps, job.id, { payload: prediction });
        return c.json({ received: true });
      } catch (error) {
        // Forget the delivery so that Replicate's retry is handled; the backstop covers it otherwise.
        await releaseWebhookEvent(db, 'replicate', eventId);
        throw error;
      }
    },
  );
}
