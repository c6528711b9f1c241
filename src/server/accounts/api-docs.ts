// The OpenAPI operations of the account's public reads (declared on their routes in routes.ts with
// describeRoute; decision 067).
import { json, RATE_LIMIT_HEADERS } from '../api-docs/components';
import type { OperationDoc } from '../api-docs/describe-route';

export const GET_PROFILE_OPERATION: OperationDoc = {
  operationId: 'getProfile',
  tag: 'Account',
  summary: 'Read the balance',
  description: 'The account: its email and its balance in tokens (`tokens`).',
  access: 'key-or-session',
  responses: { '200': { description: 'The account.', headers: RATE_LIMIT_HEADERS, content: json('Profile') } },
};

export const GET_CONFIG_OPERATION: OperationDoc = {
  operationId: 'getConfig',
  tag: 'Server',
  summary: "The server's public settings",
  description: 'What the web app needs to know of this server (its sign-in options).',
  access: 'public',
  responses: { '200': { description: 'The settings.', content: json('PublicConfig') } },
};
