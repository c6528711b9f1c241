// Each provider's webhook delivery is handled at most once: its id is claimed (a webhook_events
// row) before the handling, and released again when the handling fails, so that the provider's
// retry of the same delivery is handled instead of being taken for a duplicate.
import { and, eq } from 'drizzle-orm';
import type { AppDb } from '../db/client';
import { webhookEvents } from '../db/schema';

export type WebhookProvider = 'stripe' | 'replicate';

/** True when this call claimed the delivery; false when it was claimed before (a duplicate). */
export async function claimWebhookEvent(db: AppDb, provider: WebhookProvider, eventId: string): Promise<boolean> {
  const [fresh] = await db
    .insert(webhookEvents)
    .values({ provider, eventId })
    .onConflictDoNothing()
    .returning({ eventId: webhookEvents.eventId });
  return Boolean(fresh);
}

/** Gives a claimed delivery back after a failed handling; never throws (the failure is what matters). */
export async function releaseWebhookEvent(db: AppDb, provider: WebhookProvider, eventId: string): Promise<void> {
  await db
    .delete(webhookEvents)
    .where(and(eq(webhookEvents.provider, provider), eq(webhookEvents.eventId, eventId)))
    .catch(() => {});
}
