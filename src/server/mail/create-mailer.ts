// Picks the mailer from the configuration: SMTP when SMTP_URL is set, otherwise the local outbox.
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { Logger } from '../log';
import type { Mailer } from './mailer';
import { createOutboxMailer } from './outbox-mailer';
import { createSmtpMailer } from './smtp-mailer';

export function createMailer(config: Config, database: Database, logger: Logger): Mailer {
  if (config.mail.smtpUrl) return createSmtpMailer(config.mail.smtpUrl, config.mail.from);
  if (config.env === 'production') {
    // Allowed, so a first deployment can start, but nobody receives the mails: say so loudly.
    logger.warn('SMTP_URL is not set: mails are kept in the database outbox and not delivered');
  }
  return createOutboxMailer(database, logger.child({ component: 'mail-outbox' }), {
    logLinks: config.env !== 'production',
  });
}
