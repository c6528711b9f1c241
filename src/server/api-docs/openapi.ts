// The OpenAPI 3.1 document of the public API (issue 39), GENERATED from the contract's zod schemas
// with zod's own z.toJSONSchema: the tools' request bodies (tool-requests.ts, their input side), the
// answers (api-response-schemas.ts), the keys' and the webhook secret's (api-keys.ts, webhooks.ts).
// No schema is written twice: a field added to a contract schema shows here by itself. Adding an
// operation is one entry of OPERATIONS (the ten tools' come from TOOLS).
import { z } from 'zod';
import { API_ERROR_STATUSES as ERROR_STATUSES } from '../../contract/api-errors';
import { API_KEY_LIST, CREATE_API_KEY_REQUEST, CREATED_API_KEY } from '../../contract/api-keys';
import * as answers from '../../contract/api-response-schemas';
import { BATCH_TOOL_IDS, MAX_BATCH_IMAGES, MAX_BATCH_NAME_LENGTH } from '../../contract/batches';
import { OUTPUT_FORMAT_TYPES, OUTPUT_FORMATS } from '../../contract/output-files';
import { costInWords, toolInputLimits } from '../../contract/tool-limits';
import { imageFieldsOf, TOOL_REQUEST_SCHEMAS } from '../../contract/tool-requests';
import { TOOLS, type ToolDefinition } from '../../contract/tools';
import { WEBHOOK_SECRET } from '../../contract/webhooks';

type JsonSchema = Record<string, unknown>;
type Header = { description: string; schema: JsonSchema };
type Response = { description: string; headers?: Record<string, Header | { $ref: string }>; content?: JsonSchema };

/** Who may call an operation: with a key or a session, with a session only (keys cannot manage keys), or anyone. */
type Access = 'key-or-session' | 'session' | 'public';

export type ApiOperation = {
  method: 'get' | 'post' | 'delete';
  /** The path as OpenAPI writes it: /api/jobs/{id}. */
  path: string;
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  parameters?: JsonSchema[];
  /** Component names of the request body: its JSON form and, when the call takes files, its multipart form. */
  body?: { json: string; multipart?: string };
  responses: Record<string, Response>;
};

const SCHEMAS = '#/components/schemas/';
const ref = (name: string) => ({ $ref: `${SCHEMAS}${name}` });
const json = (name: string) => ({ 'application/json': { schema: ref(name) } });

/** A tool's component names: TextToPicRequest, TextToPicMultipartRequest. */
const pascal = (id: string) => id.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
const requestName = (tool: ToolDefinition) => `${pascal(tool.id)}Request`;
const multipartName = (tool: ToolDefinition) => `${pascal(tool.id)}MultipartRequest`;

/** The tools' bodies as the server parses them, with the optional `webhook` every call may carry. */
const toolBodies = Object.fromEntries(TOOLS.map((tool) => [tool.id, TOOL_REQUEST_SCHEMAS[tool.id]]));

/** The answers, by component name. */
const ANSWER_SCHEMAS: Record<string, z.ZodType> = {
  JobStatus: answers.JOB_STATUS,
  Keyword: answers.KEYWORD,
  Color: answers.COLOR,
  JobView: answers.JOB_VIEW,
  JobDetail: answers.JOB_DETAIL,
  ToolImageSuccess: answers.TOOL_IMAGE_SUCCESS,
  ToolAnalysisSuccess: answers.TOOL_ANALYSIS_SUCCESS,
  ToolFailure: answers.TOOL_FAILURE,
  ToolPending: answers.TOOL_PENDING,
  ToolRefusal: answers.TOOL_REFUSAL,
  ToolNotEnoughTokens: answers.TOOL_NOT_ENOUGH_TOKENS,
  ToolTooManyCalls: answers.TOOL_TOO_MANY_CALLS,
  Error: answers.API_ERROR,
  CreationImage: answers.CREATION_IMAGE,
  Creation: answers.CREATION,
  CreationList: answers.CREATION_LIST,
  Profile: answers.PROFILE,
  CreatedApiKey: CREATED_API_KEY,
  ApiKeyList: API_KEY_LIST,
  WebhookSecret: WEBHOOK_SECRET,
  Batch: answers.BATCH,
  BatchItem: answers.BATCH_ITEM,
  BatchImageQueued: answers.BATCH_IMAGE_QUEUED,
};

/** A batch image's own fields, beside its tool's (routes in server/batches/routes.ts check them). */
const BATCH_IMAGE_PLACE = {
  item: z
    .int()
    .min(0)
    .max(MAX_BATCH_IMAGES - 1)
    .describe("The image's place in the batch: 0 to size - 1."),
  name: z.string().min(1).max(MAX_BATCH_NAME_LENGTH).describe("The image's file name: its result is named after it."),
};

/** The requests, by component name (their input side: defaults make a field optional). */
const REQUEST_SCHEMAS: Record<string, z.ZodType> = {
  ...Object.fromEntries(TOOLS.map((tool) => [requestName(tool), toolBodies[tool.id] as z.ZodType])),
  CreateApiKeyRequest: CREATE_API_KEY_REQUEST,
  CreateBatchRequest: z.object({
    tool: z.enum(BATCH_TOOL_IDS),
    size: z.int().min(1).max(MAX_BATCH_IMAGES).describe('How many images will be sent.'),
  }),
  BatchImageRequest: z
    .looseObject({ image: z.string().describe("The image, as in its tool's call."), ...BATCH_IMAGE_PLACE })
    .describe(
      "The batch's tool's own body (its other fields, such as `scale`, as in POST /api/<tool>), with the image's place and name.",
    ),
};

/** Every schema of a registry as components, referring to each other by `$ref`. */
function componentsOf(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: generated } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `${SCHEMAS}${id}`,
    target: 'draft-2020-12',
  });
  return Object.fromEntries(
    Object.entries(generated).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema as JsonSchema;
      return [id, rest];
    }),
  );
}

/**
 * A request's defaults said in words rather than as `default`: the server fills them in, so a call
 * may leave them out, but common generators (openapi-typescript) make a field with a `default`
 * required, and a client would then have to send every one.
 */
function defaultsAsWords(body: JsonSchema): JsonSchema {
  const properties = Object.fromEntries(
    Object.entries((body.properties ?? {}) as Record<string, JsonSchema>).map(([field, schema]) => {
      if (!('default' in schema)) return [field, schema];
      const { default: value, ...rest } = schema;
      const said = `Default: ${JSON.stringify(value)}.`;
      return [field, { ...rest, description: rest.description ? `${rest.description} ${said}` : said }];
    }),
  );
  return { ...body, properties };
}

/** The multipart form of a tool's JSON body: the same fields, its image fields as file parts. */
function multipartOf(jsonBody: JsonSchema, imageFields: string[]): JsonSchema {
  const properties = { ...(jsonBody.properties as Record<string, JsonSchema>) };
  for (const field of imageFields) {
    properties[field] = {
      type: 'string',
      format: 'binary',
      contentMediaType: 'application/octet-stream',
      description: 'The image file (PNG, JPG or WEBP) as a file part of this name.',
    };
  }
  return { ...jsonBody, properties };
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};

const refusal = (description: string, schema = 'ToolRefusal'): Response => ({
  description,
  headers: RATE_LIMIT_HEADERS,
  content: json(schema),
});

const toolErrors = (): Record<string, Response> => ({
  '400': refusal(ERROR_STATUSES['400'] as string),
  '401': refusal(ERROR_STATUSES['401'] as string),
  '402': refusal(ERROR_STATUSES['402'] as string, 'ToolNotEnoughTokens'),
  '403': refusal(ERROR_STATUSES['403'] as string),
  '409': refusal(ERROR_STATUSES['409'] as string),
  '413': refusal(ERROR_STATUSES['413'] as string),
  '422': refusal(ERROR_STATUSES['422'] as string),
  '429': {
    ...refusal(ERROR_STATUSES['429'] as string, 'ToolTooManyCalls'),
    headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': { $ref: '#/components/headers/Retry-After' } },
  },
});

const BINARY = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };

function toolOperation(tool: ToolDefinition): ApiOperation {
  const images = tool.response !== 'analysis';
  const success = images ? 'ToolImageSuccess' : 'ToolAnalysisSuccess';
  const description = [
    tool.summary,
    `**Cost:** ${costInWords(tool)} (the same price and ledger as the app; a free preview costs nothing and answers \`demo: true\`).`,
    `**Limits:** ${toolInputLimits(tool.id).join(' ')}`,
    'Send JSON (images as a data URL or base64, or `/api/files/<id>` of your own file) or multipart/form-data (each image as a file part named as its JSON field, the other fields as form fields).',
    images
      ? "With `Accept: image/png` (or `image/webp`, `image/*`) a finished job answers with the first output's bytes directly."
      : '',
    '`Prefer: wait=N` waits up to N seconds for the job; a job not finished in time answers 202: follow it at GET /api/jobs/{id}, or pass `webhook`.',
  ]
    .filter(Boolean)
    .join('\n\n');
  const okHeaders = {
    'X-Job-Id': { description: 'The job this call made.', schema: { type: 'string' } },
    'X-Tokens-Charged': { description: 'Tokens this call took (0 for a free preview).', schema: { type: 'integer' } },
    'X-Tokens-Remaining': { description: 'The balance after this call.', schema: { type: 'integer' } },
    ...RATE_LIMIT_HEADERS,
  };
  return {
    method: 'post',
    path: `/api${tool.apiPath}`,
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
      {
        name: 'Prefer',
        in: 'header',
        required: false,
        description: '`wait=N`: wait up to N seconds for the job to end before answering 202.',
        schema: { type: 'string', examples: ['wait=60'] },
      },
    ],
    body: { json: requestName(tool), multipart: multipartName(tool) },
    responses: {
      '200': {
        description: images
          ? 'The job succeeded: JSON, or the first output as an image when the call asked for one (Accept: image/*).'
          : 'The job succeeded.',
        headers: okHeaders,
        content: {
          ...json(success),
          ...(images
            ? Object.fromEntries(Object.values(OUTPUT_FORMAT_TYPES).map((type) => [type, { schema: BINARY }]))
            : {}),
        },
      },
      '202': { description: 'Still queued or running.', headers: okHeaders, content: json('ToolPending') },
      ...toolErrors(),
      '502': {
        description: 'The job failed and its tokens went back.',
        headers: RATE_LIMIT_HEADERS,
        content: json('ToolFailure'),
      },
    },
  };
}

const idParameter = (description: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', format: 'uuid' },
});

const unauthorized: Response = { description: 'No key or session, or the key was revoked.', content: json('Error') };
const sessionOnly: Response = {
  description: 'A key cannot do this: it needs a session (sign in on the site).',
  content: json('Error'),
};

/** Every operation of the public API, in the document's order. */
export const OPERATIONS: readonly ApiOperation[] = [
  ...TOOLS.map(toolOperation),
  {
    method: 'get',
    path: '/api/jobs/{id}',
    operationId: 'getJob',
    tag: 'Jobs',
    summary: 'Read a job',
    description:
      'A job of the account: its status, its outputs once it succeeded. `Prefer: wait=N` waits for it to end.',
    access: 'key-or-session',
    parameters: [idParameter('The job id (X-Job-Id, or `jobId` of a tool call).')],
    responses: {
      '200': { description: 'The job.', headers: RATE_LIMIT_HEADERS, content: json('JobDetail') },
      '401': unauthorized,
      '404': { description: 'No such job of this account.', content: json('Error') },
    },
  },
  {
    method: 'get',
    path: '/api/files/{id}',
    operationId: 'getFile',
    tag: 'Jobs',
    summary: 'Download a file',
    description: 'An image of the account (an output or an upload): its bytes.',
    access: 'key-or-session',
    parameters: [
      idParameter('The file id of an output URL (/api/files/<id>).'),
      {
        name: 'format',
        in: 'query',
        required: false,
        description: 'The image in this format instead of the one it is stored in.',
        schema: { type: 'string', enum: [...OUTPUT_FORMATS] },
      },
    ],
    responses: {
      '200': {
        description:
          'The image; with `?format=png|jpeg|webp|avif`, converted to that format (its colour profile and metadata kept; a transparent image is not given as JPEG: 400).',
        content: Object.fromEntries(Object.values(OUTPUT_FORMAT_TYPES).map((type) => [type, { schema: BINARY }])),
      },
      '401': unauthorized,
      '404': { description: 'No such file of this account.', content: json('Error') },
    },
  },
  {
    method: 'get',
    path: '/api/creations',
    operationId: 'listCreations',
    tag: 'Jobs',
    summary: 'List creations',
    description: "The account's jobs with what they cost and made, newest first, a page at a time.",
    access: 'key-or-session',
    parameters: [
      { name: 'tool', in: 'query', required: false, description: 'Only this tool.', schema: { type: 'string' } },
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
      '400': { description: 'A query parameter is wrong.', content: json('Error') },
      '401': unauthorized,
    },
  },
  {
    method: 'get',
    path: '/api/profile',
    operationId: 'getProfile',
    tag: 'Account',
    summary: 'Read the balance',
    description: 'The account: its email and its balance in tokens (`tokens`).',
    access: 'key-or-session',
    responses: {
      '200': { description: 'The account.', headers: RATE_LIMIT_HEADERS, content: json('Profile') },
      '401': unauthorized,
    },
  },
  {
    method: 'post',
    path: '/api/batches',
    operationId: 'createBatch',
    tag: 'Batches',
    summary: 'Start a batch',
    description: `Many images through one image tool (${BATCH_TOOL_IDS.join(', ')}), up to ${MAX_BATCH_IMAGES}. Nothing is charged here: send each image to POST /api/batches/{id}/images, where it is charged on its own. A batch counts as one call per minute, and each of its images as one more.`,
    access: 'key-or-session',
    body: { json: 'CreateBatchRequest' },
    responses: {
      '201': { description: 'The batch, with no image yet.', headers: RATE_LIMIT_HEADERS, content: json('Batch') },
      '400': { description: 'Not a batch tool, or a size out of range.', content: json('Error') },
      '401': unauthorized,
      '402': { description: 'Not enough tokens for one image.', content: json('Error') },
      '403': { description: 'The account cannot run tools now.', content: json('Error') },
    },
  },
  {
    method: 'post',
    path: '/api/batches/{id}/images',
    operationId: 'addBatchImage',
    tag: 'Batches',
    summary: 'Send an image of a batch',
    description:
      "One image as its own job: the batch's tool's rules, price and refusals, charged on its own and refunded on its own if it fails. Answers at once: follow the batch at GET /api/batches/{id}. Sending an item again answers the job it made.",
    access: 'key-or-session',
    parameters: [idParameter('The batch id.')],
    body: { json: 'BatchImageRequest' },
    responses: {
      '202': { description: 'Queued.', headers: RATE_LIMIT_HEADERS, content: json('BatchImageQueued') },
      ...toolErrors(),
      '404': refusal('No such batch of this account.'),
    },
  },
  {
    method: 'get',
    path: '/api/batches/{id}',
    operationId: 'getBatch',
    tag: 'Batches',
    summary: 'Read a batch',
    description: 'Each image sent with its state, place in the line and results; counts by state; the time left.',
    access: 'key-or-session',
    parameters: [idParameter('The batch id.')],
    responses: {
      '200': { description: 'The batch.', headers: RATE_LIMIT_HEADERS, content: json('Batch') },
      '401': unauthorized,
      '404': { description: 'No such batch of this account.', content: json('Error') },
    },
  },
  {
    method: 'get',
    path: '/api/batches/{id}/download',
    operationId: 'downloadBatch',
    tag: 'Batches',
    summary: 'Download a batch',
    description:
      'A zip of the results so far, each named after its input (IMG_0412.jpg -> IMG_0412-background-removed.png); an Image Analyzer batch as keywords.csv (Filename, Keywords, Colors).',
    access: 'key-or-session',
    parameters: [idParameter('The batch id.')],
    responses: {
      '200': { description: 'The zip.', content: { 'application/zip': { schema: BINARY } } },
      '401': unauthorized,
      '404': { description: 'No such batch of this account.', content: json('Error') },
      '409': { description: 'No image of it is done yet.', content: json('Error') },
    },
  },
  {
    method: 'delete',
    path: '/api/batches/{id}',
    operationId: 'deleteBatch',
    tag: 'Batches',
    summary: 'Delete a batch',
    description: 'The batch with its images and results, once none of its images waits or runs.',
    access: 'session',
    parameters: [idParameter('The batch id.')],
    responses: {
      '204': { description: 'Deleted.' },
      '401': unauthorized,
      '403': sessionOnly,
      '404': { description: 'No such batch of this account.', content: json('Error') },
      '409': { description: 'An image of it still waits or runs.', content: json('Error') },
    },
  },
  {
    method: 'post',
    path: '/api/keys',
    operationId: 'createApiKey',
    tag: 'Keys',
    summary: 'Create a key',
    description: 'A new key, shown in full this once. Only a verified, unsuspended account can create one.',
    access: 'session',
    body: { json: 'CreateApiKeyRequest' },
    responses: {
      '201': { description: 'The new key.', content: json('CreatedApiKey') },
      '400': { description: 'The name is missing or too long.', content: json('Error') },
      '401': unauthorized,
      '403': sessionOnly,
    },
  },
  {
    method: 'get',
    path: '/api/keys',
    operationId: 'listApiKeys',
    tag: 'Keys',
    summary: 'List keys',
    access: 'session',
    responses: {
      '200': { description: "The account's keys.", content: json('ApiKeyList') },
      '401': unauthorized,
      '403': sessionOnly,
    },
  },
  {
    method: 'delete',
    path: '/api/keys/{id}',
    operationId: 'revokeApiKey',
    tag: 'Keys',
    summary: 'Revoke a key',
    description: 'The key stops working at once.',
    access: 'session',
    parameters: [idParameter('The key id.')],
    responses: {
      '204': { description: 'Revoked.' },
      '401': unauthorized,
      '403': sessionOnly,
      '404': { description: 'No such key of this account.', content: json('Error') },
    },
  },
  {
    method: 'get',
    path: '/api/webhook-secret',
    operationId: 'getWebhookSecret',
    tag: 'Webhooks',
    summary: 'Read the webhook signing secret',
    access: 'session',
    responses: {
      '200': { description: 'The secret.', content: json('WebhookSecret') },
      '401': unauthorized,
      '403': sessionOnly,
    },
  },
  {
    method: 'post',
    path: '/api/webhook-secret/rotate',
    operationId: 'rotateWebhookSecret',
    tag: 'Webhooks',
    summary: 'Rotate the webhook signing secret',
    description: 'A new secret; deliveries are signed with it from now on.',
    access: 'session',
    responses: {
      '200': { description: 'The new secret.', content: json('WebhookSecret') },
      '401': unauthorized,
      '403': sessionOnly,
    },
  },
];

const SECURITY: Record<Access, JsonSchema[]> = {
  'key-or-session': [{ apiKey: [] }, { session: [] }],
  session: [{ session: [] }],
  public: [],
};

function operationObject(operation: ApiOperation): JsonSchema {
  const { body } = operation;
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    security: SECURITY[operation.access],
    ...(operation.parameters ? { parameters: operation.parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: ref(body.json) },
              ...(body.multipart ? { 'multipart/form-data': { schema: ref(body.multipart) } } : {}),
            },
          },
        }
      : {}),
    responses: operation.responses,
  };
}

/** The whole document. `serverUrl`: this server's public address (APP_URL). */
export function buildOpenApiDocument(options: { serverUrl: string; version: string }): JsonSchema {
  const requests = Object.fromEntries(
    Object.entries(componentsOf(REQUEST_SCHEMAS, 'input')).map(([name, body]) => [name, defaultsAsWords(body)]),
  );
  const multipart = Object.fromEntries(
    TOOLS.map((tool) => [
      multipartName(tool),
      multipartOf(requests[requestName(tool)] as JsonSchema, imageFieldsOf(tool.id)),
    ]),
  );
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const operation of OPERATIONS) {
    paths[operation.path] = { ...paths[operation.path], [operation.method]: operationObject(operation) };
  }
  const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Picture Palette API',
      version: options.version,
      description:
        'The ten Picture Palette tools from code, at the same prices as the app. See /developers for a guide.',
    },
    servers: [{ url: options.serverUrl }],
    tags: [
      { name: 'Tools', description: 'The ten tools: each call makes a job and takes its tokens.' },
      { name: 'Jobs', description: 'Jobs, their files and the list of creations.' },
      { name: 'Batches', description: 'Many images through one tool, each its own job.' },
      { name: 'Account', description: 'The balance.' },
      { name: 'Keys', description: 'API keys (a session only).' },
      { name: 'Webhooks', description: "The account's webhook signing secret (a session only)." },
    ],
    paths,
    components: {
      schemas: { ...componentsOf(ANSWER_SCHEMAS, 'output'), ...requests, ...multipart },
      securitySchemes: {
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'pp_...',
          description: 'An API key from User Settings > Developer: `Authorization: Bearer pp_...`.',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'pp.session_token',
          description: 'The session of a signed-in browser (`__Secure-pp.session_token` over https).',
        },
      },
      headers: {
        'RateLimit-Limit': integerHeader('Calls allowed in the current window.'),
        'RateLimit-Remaining': integerHeader('Calls left in the current window.'),
        'RateLimit-Reset': integerHeader('Seconds until the window resets.'),
        'Retry-After': integerHeader('Seconds to wait before trying again.'),
      },
    },
  };
}
