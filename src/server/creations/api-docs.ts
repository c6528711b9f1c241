// The OpenAPI operation of GET /api/creations (declared on its route in routes.ts with
// describeRoute; decision 067).
import { TOOL_IDS } from '../../contract/tools';
import { json, RATE_LIMIT_HEADERS, refusal } from '../api-docs/components';
import type { OperationDoc } from '../api-docs/describe-route';

export const LIST_CREATIONS_OPERATION: OperationDoc = {
  operationId: 'listCreations',
  tag: 'Jobs',
  summary: 'List creations',
  description: "The account's jobs with what they cost and made, newest first, a page at a time.",
  access: 'key-or-session',
  parameters: [
    {
      name: 'tool',
      in: 'query',
      required: false,
      description: 'Only this tool.',
      schema: { type: 'string', enum: [...TOOL_IDS] },
    },
    {
      name: 'cursor',
      in: 'query',
      required: false,
      description: '`next` of the previous page.',
      schema: { type: 'string' },
    },
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: 'Creations per page.',
      schema: { type: 'integer', minimum: 1, maximum: 100 },
    },
  ],
  responses: {
    '200': { description: 'A page of creations.', headers: RATE_LIMIT_HEADERS, content: json('CreationList') },
    '400': refusal('A query parameter is wrong, or the address has broken percent-encoding.'),
  },
};
