// Sends mail through the SMTP server named by SMTP_URL (smtp:// or smtps://, credentials in the URL).
import type { Transporter } from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { Mailer } from './mailer';

// nodemailer waits minutes by default; a dead server should fail the job quickly so it is retried.
const TIMEOUTS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 15_000 };

export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  // Query parameters in the URL (e.g. ?greetingTimeout=10000) override these defaults. nodemailer
  // is imported with the first mail, not at every start (the local outbox needs none of it).
  let transport: Promise<Transporter<SMTPTransport.SentMessageInfo>> | undefined;
  const transportOnce = () =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({ url: smtpUrl, ...TIMEOUTS }),
    ));
  return {
    kind: 'smtp',
    async send(message) {
      const info = await (await transportOnce()).sendMail({
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
