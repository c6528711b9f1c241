// The development mailer: keeps every message in mail_outbox (browsable at /dev/mail) and prints
// its links to the log, so a fresh checkout can verify an account without an SMTP server.
import { desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { isUuid } from '../db/ids';
import { mailOutbox } from '../db/schema';
import type { Logger } from '../log';
import type { Mailer } from './mailer';

export type OutboxMessage = typeof mailOutbox.$inferSelect;

/** The distinct http(s) links of a plain-text body, in order. */
export function findLinks(text: string): string[] {
  return [...new Set(text.match(/https?:\/\/[^\s<>"')\]]+/g) ?? [])];
}

/**
 * `logLinks: false` keeps links out of the log: they carry sign-in tokens, which must not reach a
 * production log collector.
 */
export function createOutboxMailer(database: Database, logger: Logger, options: { logLinks?: boolean } = {}): Mailer {
  const logLinks = options.logLinks ?? true;
  return {
    kind: 'outbox',
    async send(message) {
      const [row] = await database.db
        .insert(mailOutbox)
        .values({ to: message.to, subject: message.subject, html: message.html, text: message.text })
        .returning({ id: mailOutbox.id });
      logger.info('mail stored in the development outbox', {
        id: row?.id,
        to: message.to,
        subject: message.subject,
        ...(logLinks ? { links: findLinks(message.text) } : {}),
      });
    },
  };
}

/** The newest messages first. */
export function listOutbox(database: Database, options: { limit: number }): Promise<OutboxMessage[]> {
  return database.db
    .select()
    .from(mailOutbox)
    .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
    .limit(options.limit);
}

/** One message, or null when the id is unknown or not a uuid at all (ids come from URLs). */
export async function getOutboxMessage(database: Database, id: string): Promise<OutboxMessage | null> {
  if (!isUuid(id)) return null;
  const [row] = await database.db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
  return row ?? null;
}
