// Sends mail through the SMTP server named by SMTP_URL (smtp:// or smtps://, credentials in the URL).
import nodemailer from 'nodemailer';
import type { Mailer } from './mailer';

// nodemailer waits minutes by default; a dead server should fail the job quickly so it is retried.
const TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 15_000 };

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // Query parameters in the URL (e.g. ?greetingTimeout=10000) override these defaults.
  const transport = nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS });
  return {
    kind: 'smtp',
    async send(message) {
      const info = await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        html: message.html,
        text: message.text,
      });
      // One recipient per message: a refused address means the mail did not go out.
      if (info.rejected.length > 0) {
        throw new Error(`SMTP server refused the recipient ${message.to}`);
      }
    },
  };
}
