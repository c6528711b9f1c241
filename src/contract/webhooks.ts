// Webhooks of tool calls (issue 39): the `webhook` field a call may carry and the account's signing
// secret. zod schemas, the one source of the types and of the OpenAPI document.
import { z } from 'zod';

/** A tool call's optional `webhook`: where the job is POSTed, signed, when it ends. */
export const WEBHOOK_URL = z
  .url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
  .describe(
    'Where to POST the job as JSON when it ends (succeeded, or failed and refunded), signed as Standard Webhooks ' +
      "specifies with the account's secret (GET /api/webhook-secret). https only in production.",
  );

export const WEBHOOK_SECRET = z
  .object({ secret: z.string().describe('The signing secret; it begins with "whsec_".') })
  .describe("The account's webhook signing secret.");
export type WebhookSecret = z.output<typeof WEBHOOK_SECRET>;

/** A tool's request body as the public API documents it: the tool's own fields and the optional `webhook`. */
export const withWebhook = <T extends z.ZodObject>(body: T) => body.extend({ webhook: WEBHOOK_URL.optional() });
