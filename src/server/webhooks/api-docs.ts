// The OpenAPI operations of the webhook signing secret (declared on their routes in
// secret-routes.ts with describeRoute; decision 067), and the delivery a job's `webhook` receives:
// the document's `webhooks` section (deliveries/webhook-deliveries.ts sends it, signed as Standard
// Webhooks specifies by deliveries/send-webhook.ts).
import { WEBHOOK_EVENT_TYPES } from '../../contract/webhooks';
import { json, ref } from '../api-docs/components';
import type { JsonSchema, OperationDoc } from '../api-docs/describe-route';

export const GET_WEBHOOK_SECRET_OPERATION: OperationDoc = {
  operationId: 'getWebhookSecret',
  tag: 'Webhooks',
  summary: 'Read the webhook signing secret',
  description:
    "The account's secret (`whsec_` + base64) that signs its webhook deliveries: verify each delivery with it.",
  access: 'session',
  responses: { '200': { description: 'The secret.', content: json('WebhookSecret') } },
};

export const ROTATE_WEBHOOK_SECRET_OPERATION: OperationDoc = {
  operationId: 'rotateWebhookSecret',
  tag: 'Webhooks',
  summary: 'Rotate the webhook signing secret',
  description: 'A new secret; deliveries are signed with it from now on.',
  access: 'session',
  responses: { '200': { description: 'The new secret.', content: json('WebhookSecret') } },
};

const signatureHeader = (name: string, description: string, schema: JsonSchema) => ({
  name,
  in: 'header',
  required: true,
  description,
  schema,
});

/** The document's `webhooks`: what the server POSTs to a call's `webhook` URL when its job ends. */
export const WEBHOOK_DELIVERIES = {
  jobEnded: {
    post: {
      operationId: 'jobEnded',
      // Sent by this server, not called on it: the signature headers are its proof.
      security: [],
      tags: ['Webhooks'],
      summary: 'A job ended',
      description: `POSTed to the call's \`webhook\` URL once its job ends (\`type\`: ${WEBHOOK_EVENT_TYPES.join(' or ')}; a failed job's tokens are already back), signed as Standard Webhooks specifies with the account's secret (GET /api/webhook-secret). Tried again with growing pauses until the receiver answers 2xx (within 10 s) or the tries run out; every try carries the same \`webhook-id\`.`,
      parameters: [
        signatureHeader(
          'webhook-id',
          'The delivery id (`job_<job id>_<status>`): the same on every try, for de-duplication.',
          {
            type: 'string',
          },
        ),
        signatureHeader('webhook-timestamp', 'When this try was signed, in Unix seconds.', {
          type: 'string',
          pattern: '^\\d+$',
        }),
        signatureHeader(
          'webhook-signature',
          '`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the secret (the part after `whsec_`, base64-decoded).',
          { type: 'string', pattern: '^v1,' },
        ),
      ],
      requestBody: { required: true, content: { 'application/json': { schema: ref('WebhookEvent') } } },
      responses: {
        '200': { description: 'Any 2xx: received, not tried again.' },
        default: { description: 'Anything else, or no answer within 10 s: tried again later.' },
      },
    },
  },
};
