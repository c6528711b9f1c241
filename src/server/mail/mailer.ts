// The mailer interface: SMTP in production (SMTP_URL), the local outbox by default.
export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
};

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /** Sends one message; throws when it could not be handed over (callers retry from a job). */
  send(message: MailMessage): Promise<void>;
}
