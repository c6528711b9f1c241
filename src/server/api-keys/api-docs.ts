// The OpenAPI operations of /api/keys (declared on their routes in routes.ts with describeRoute;
// decision 067). A session only: a key cannot manage keys.
import { idParameter, json, ref, refusal } from '../api-docs/components';
import type { OperationDoc } from '../api-docs/describe-route';

export const CREATE_API_KEY_OPERATION: OperationDoc = {
  operationId: 'createApiKey',
  tag: 'Keys',
  summary: 'Create a key',
  description: 'A new key, shown in full this once. Only a verified, unsuspended account can create one.',
  access: 'session',
  body: { 'application/json': ref('CreateApiKeyRequest') },
  responses: {
    '201': { description: 'The new key.', content: json('CreatedApiKey') },
    '400': refusal('The name is missing or too long, or the address has broken percent-encoding.'),
    '403': refusal(
      'A key cannot do this (it needs a session); an unverified or suspended account; or a session cookie from another site.',
    ),
    '409': refusal('The account has as many keys as it may.'),
  },
};

export const LIST_API_KEYS_OPERATION: OperationDoc = {
  operationId: 'listApiKeys',
  tag: 'Keys',
  summary: 'List keys',
  description: "The account's keys: their names and when each was made and last used, never the key itself.",
  access: 'session',
  responses: { '200': { description: "The account's keys.", content: json('ApiKeyList') } },
};

export const REVOKE_API_KEY_OPERATION: OperationDoc = {
  operationId: 'revokeApiKey',
  tag: 'Keys',
  summary: 'Revoke a key',
  description: 'The key stops working at once.',
  access: 'session',
  parameters: [idParameter('The key id.')],
  responses: {
    '204': { description: 'Revoked.' },
    '404': refusal('No such key of this account.'),
  },
};
