// The OpenAPI operations of the tool calls and GET /api/tools (declared on their routes in
// tool-call-routes.ts with describeRoute; decision 067). A tool's price is this server's: its
// provider's (the inference router's), as a call is charged.
import { API_ERROR_STATUSES } from '../../../contract/api-errors';
import { costInWords, toolInputLimits } from '../../../contract/tool-limits';
import type { ToolDefinition } from '../../../contract/tools';
import {
  imageContent,
  json,
  multipartName,
  pascal,
  preferParameter,
  RATE_LIMIT_HEADERS,
  ref,
  refusal,
  requestName,
  toolRefusals,
} from '../../api-docs/components';
import type { OperationDoc } from '../../api-docs/describe-route';
import type { InferenceRouter } from '../../inference/routing';
import { isFreePreview, unitPrice } from '../../pricing/prices';

/** What a call of `tool` costs on this server: its provider's price, or nothing for a free preview. */
function costHere(tool: ToolDefinition, provider: string): string {
  if (isFreePreview(tool.id, provider))
    return 'nothing here: this server gives it as a free preview (a labelled placeholder, `demo: true`).';
  return `${costInWords({ cost: unitPrice(tool.id, provider), costPer: tool.costPer })} on this server (its ${provider} provider), the same price and ledger as the app.`;
}

export const IMAGE_ANSWER_DESCRIPTION =
  "With `Accept: image/png` (or `image/webp`, `image/*`) a finished job answers with the first output's bytes directly.";

/** POST /api/<tool>: one call of `tool`, priced as `inference` serves it. */
export function toolOperation(tool: ToolDefinition, inference: InferenceRouter): OperationDoc {
  const images = tool.response !== 'analysis';
  const provider = inference.describe()[tool.id];
  const description = [
    tool.summary,
    `**Cost:** ${costHere(tool, provider)}`,
    `**Limits:** ${toolInputLimits(tool.id).join(' ')}`,
    'Send JSON (each image as raw base64 or a data URL, or `/api/files/<id>` of your own file) or multipart/form-data (each image as a file part named as its JSON field, the other fields as form fields).',
    images
      ? IMAGE_ANSWER_DESCRIPTION
      : 'It answers JSON only: a call that accepts only images (`Accept: image/*`) is refused with 406 before anything is charged.',
    '`Prefer: wait=N` waits up to N seconds for the job; a job not finished in time answers 202: follow it at GET /api/jobs/{id}, or pass `webhook`.',
  ].join('\n\n');
  const okHeaders = {
    'X-Job-Id': { description: 'The job this call made.', schema: { type: 'string' } },
    'X-Tokens-Charged': { description: 'Tokens this call took (0 for a free preview).', schema: { type: 'integer' } },
    'X-Tokens-Remaining': { description: 'The balance after this call.', schema: { type: 'integer' } },
    ...RATE_LIMIT_HEADERS,
  };
  return {
    operationId: pascal(tool.id).replace(/^./, (first) => first.toLowerCase()),
    tag: 'Tools',
    summary: tool.title,
    description,
    access: 'key-or-session',
    parameters: [
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'The same key and body give the same job, charged once; the same key with another body is a 422.',
        schema: { type: 'string', maxLength: 255 },
      },
      preferParameter('`wait=N`: wait up to N seconds for the job to end before answering 202.'),
    ],
    body: {
      'application/json': ref(requestName(tool)),
      'multipart/form-data': ref(multipartName(tool)),
    },
    responses: {
      '200': {
        description: images
          ? 'The job succeeded: JSON, or the first output as an image when the call asked for one (Accept: image/*).'
          : 'The job succeeded.',
        headers: okHeaders,
        content: {
          ...json(images ? 'ToolImageSuccess' : 'ToolAnalysisSuccess'),
          ...(images ? imageContent() : {}),
        },
      },
      '202': { description: 'Still queued or running.', headers: okHeaders, content: json('ToolPending') },
      ...toolRefusals(),
      ...(images
        ? {}
        : {
            '406': refusal(API_ERROR_STATUSES['406'] as string, 'ToolRefusal'),
          }),
      '410': refusal('The job was deleted (with its account) while the call waited.', 'ToolRefusal'),
      '502': {
        description: 'The job failed and its tokens went back.',
        headers: RATE_LIMIT_HEADERS,
        content: json('ToolFailure'),
      },
    },
  };
}

export const TOOLS_INFO_OPERATION: OperationDoc = {
  operationId: 'listTools',
  tag: 'Tools',
  summary: "The tools and this server's prices",
  description:
    'Which provider serves each tool on this server and its price in tokens there (per image or per request, as each tool says): the price a call is charged.',
  access: 'public',
  responses: { '200': { description: 'The tools.', content: json('ToolsInfo') } },
};
