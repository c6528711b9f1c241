// The parts of the OpenAPI document that operations share (decision 067): its named schemas,
// GENERATED from the contract's zod schemas with zod's own z.toJSONSchema (the tools' request bodies
// on their input side, the answers on their output side: a field added to a contract schema shows
// here by itself), and the helpers the routes' operations are written with (component references,
// refusal answers, the RateLimit headers, the common parameters).
import { z } from 'zod';
import { API_ERROR_STATUSES } from '../../contract/api-errors';
import { API_KEY_LIST, CREATE_API_KEY_REQUEST, CREATED_API_KEY } from '../../contract/api-keys';
import * as answers from '../../contract/api-response-schemas';
import { BATCH_TOOL_IDS, MAX_BATCH_IMAGES, MAX_BATCH_NAME_LENGTH } from '../../contract/batches';
import { OUTPUT_FORMAT_TYPES } from '../../contract/output-files';
import * as recipes from '../../contract/recipe-schemas';
import { imageFieldsOf } from '../../contract/tool-requests';
import { TOOLS, type ToolDefinition, type ToolId } from '../../contract/tools';
import { WEBHOOK_EVENT, WEBHOOK_SECRET } from '../../contract/webhooks';
import type { Header, JsonSchema, Response } from './describe-route';

const SCHEMAS = '#/components/schemas/';

/** A tool's component names: TextToPicRequest, TextToPicMultipartRequest. */
export const pascal = (id: string) => id.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());
export const requestName = (tool: ToolDefinition): `${string}Request` => `${pascal(tool.id)}Request`;
export const multipartName = (tool: ToolDefinition): `${string}Request` => `${pascal(tool.id)}MultipartRequest`;

/** The answers, by component name (their output side). */
const ANSWER_SCHEMAS = {
  JobStatus: answers.JOB_STATUS,
  Keyword: answers.KEYWORD,
  Color: answers.COLOR,
  JobDetail: answers.JOB_DETAIL,
  ToolImageSuccess: answers.TOOL_IMAGE_SUCCESS,
  ToolAnalysisSuccess: answers.TOOL_ANALYSIS_SUCCESS,
  ToolFailure: answers.TOOL_FAILURE,
  ToolPending: answers.TOOL_PENDING,
  ToolRefusal: answers.TOOL_REFUSAL,
  ToolNotEnoughTokens: answers.TOOL_NOT_ENOUGH_TOKENS,
  ToolTooManyCalls: answers.TOOL_TOO_MANY_CALLS,
  Error: answers.API_ERROR,
  NotEnoughTokens: answers.NOT_ENOUGH_TOKENS,
  CreationImage: answers.CREATION_IMAGE,
  Creation: answers.CREATION,
  CreationList: answers.CREATION_LIST,
  Profile: answers.PROFILE,
  ToolsInfo: answers.TOOLS_INFO,
  PackageList: answers.PACKAGE_LIST,
  PublicConfig: answers.PUBLIC_CONFIG,
  CreatedApiKey: CREATED_API_KEY,
  ApiKeyList: API_KEY_LIST,
  WebhookSecret: WEBHOOK_SECRET,
  WebhookEvent: WEBHOOK_EVENT,
  Batch: answers.BATCH,
  BatchItem: answers.BATCH_ITEM,
  BatchImageQueued: answers.BATCH_IMAGE_QUEUED,
  Recipe: recipes.RECIPE,
  RecipeList: recipes.RECIPE_LIST,
  RecipeRun: recipes.RECIPE_RUN,
} satisfies Record<string, z.ZodType>;

/** A batch image's own fields, beside its tool's (routes in server/batches/routes.ts check them). */
const BATCH_IMAGE_PLACE = {
  item: z
    .int()
    .min(0)
    .max(MAX_BATCH_IMAGES - 1)
    .describe("The image's place in the batch: 0 to size - 1."),
  name: z.string().min(1).max(MAX_BATCH_NAME_LENGTH).describe("The image's file name: its result is named after it."),
};

/**
 * Each tool's request schema (contract/tools/<tool-id>/request.ts), as the server's tool modules
 * carry it: handed in by app.ts, since this folder imports the contract alone.
 */
export type ToolRequestSchemaOf = (tool: ToolId) => z.ZodObject;

/** The requests other than the tools', by component name (their input side: defaults make a field optional). */
const REQUEST_SCHEMAS = {
  CreateApiKeyRequest: CREATE_API_KEY_REQUEST,
  CreateBatchRequest: z.object({
    tool: z.enum(BATCH_TOOL_IDS),
    size: z.int().min(1).max(MAX_BATCH_IMAGES).describe('How many images will be sent.'),
    names: z
      .array(z.string().min(1).max(MAX_BATCH_NAME_LENGTH))
      .optional()
      .describe(
        "The images' file names in their order, one for each: the zip's README.txt names by them the images never sent.",
      ),
  }),
  RefineRequest: z
    .object({
      mask: z
        .string()
        .describe(
          "The edited mask: a PNG or WebP, white where the subject stays, black or transparent where it goes, the photo's size or smaller in its shape; in base64 or a data URL.",
        ),
    })
    .describe("A cut-out's mask, edited by hand (GET /api/creations/{jobId}/mask is the one to start from)."),
  BatchImageRequest: z
    .looseObject({ image: z.string().describe("The image, as in its tool's call."), ...BATCH_IMAGE_PLACE })
    .describe(
      "The batch's tool's own body (its other fields, such as `scale`, as in POST /api/<tool>), with the image's place and name.",
    ),
  RecipeRequest: recipes.RECIPE_REQUEST,
  RecipeRunRequest: recipes.RECIPE_RUN_REQUEST,
  RecipeRunImageRequest: z
    .object({
      image: z.string().describe("The image, as in a tool call: its first step's."),
      name: z.string().min(1).max(MAX_BATCH_NAME_LENGTH).optional().describe("The image's file name."),
    })
    .describe('One image through a recipe.'),
};

/** An answer's component, or a request's (every request component's name ends in Request). */
export type ComponentName = keyof typeof ANSWER_SCHEMAS | `${string}Request`;

export const ref = (name: ComponentName) => ({ $ref: `${SCHEMAS}${name}` });

/** A JSON body of one of these components (several: any of them, as different refusals of one status answer). */
export const json = (...names: ComponentName[]) => ({
  'application/json': { schema: names.length === 1 ? ref(names[0] as ComponentName) : { anyOf: names.map(ref) } },
});

/** An image's bytes, in each format the server gives images in. */
export const imageContent = () =>
  Object.fromEntries(
    Object.values(OUTPUT_FORMAT_TYPES).map((type) => [
      type,
      { schema: { type: 'string', format: 'binary', contentMediaType: type } },
    ]),
  );

export const RATE_LIMIT_HEADERS: Record<string, Header> = {
  'RateLimit-Limit': { $ref: '#/components/headers/RateLimit-Limit' },
  'RateLimit-Remaining': { $ref: '#/components/headers/RateLimit-Remaining' },
  'RateLimit-Reset': { $ref: '#/components/headers/RateLimit-Reset' },
};
export const RETRY_AFTER: Record<string, Header> = { 'Retry-After': { $ref: '#/components/headers/Retry-After' } };

/** A refused call: its sentence in a JSON body of one of these components. */
export const refusal = (description: string, ...names: ComponentName[]): Response => ({
  description,
  content: json(...(names.length ? names : (['Error'] as const))),
});

/**
 * A refusal of a tool call or a batch image (`success: false`), with the RateLimit headers of the
 * window it was counted in. The address checks before the route answer `{ error }` alone: a status
 * they share is either.
 */
const toolRefusal = (status: string, ...names: ComponentName[]): Response => ({
  description: API_ERROR_STATUSES[status] ?? status,
  headers: RATE_LIMIT_HEADERS,
  content: json(...(names.length ? names : (['ToolRefusal'] as const))),
});

/** The refusals every tool call and batch image may answer. */
export const toolRefusals = (): Record<string, Response> => ({
  '400': {
    ...toolRefusal('400', 'ToolRefusal', 'Error'),
    description: `${API_ERROR_STATUSES['400']} Also a broken percent-encoded address.`,
  },
  '401': toolRefusal('401', 'ToolRefusal', 'Error'),
  '402': toolRefusal('402', 'ToolNotEnoughTokens'),
  '403': {
    ...toolRefusal('403', 'ToolRefusal', 'Error'),
    description: `${API_ERROR_STATUSES['403']} Also a call with the site's session cookie from another site's page (its Origin).`,
  },
  '409': toolRefusal('409'),
  '413': toolRefusal('413', 'ToolRefusal', 'Error'),
  '415': refusal(API_ERROR_STATUSES['415'] as string, 'ToolRefusal'),
  '422': toolRefusal('422'),
  '429': {
    ...toolRefusal('429', 'ToolTooManyCalls'),
    headers: { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER },
  },
});

export const idParameter = (description: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', format: 'uuid' },
});

/** `Prefer: wait=N`, where the server reads it. */
export const preferParameter = (description: string) => ({
  name: 'Prefer',
  in: 'header',
  required: false,
  description,
  schema: { type: 'string', pattern: '^wait=\\d+$', examples: ['wait=30'] },
});

/** Where zod puts a schema that several components use but no component is named for: made a component of its own. */
const SHARED = 'urn:picture-palette:shared';

/** Every schema of a registry as components, referring to each other by `$ref`. */
function componentsOf(schemas: Record<string, z.ZodType>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(schemas)) registry.add(schema, { id });
  const { schemas: generated } = z.toJSONSchema(registry, {
    io,
    uri: (id) => (id === '__shared' ? SHARED : `${SCHEMAS}${id}`),
    target: 'draft-2020-12',
  });
  const { __shared: shared, ...named } = generated;
  const components: Record<string, JsonSchema> = {
    ...(((shared as JsonSchema | undefined)?.$defs ?? {}) as Record<string, JsonSchema>),
    ...named,
  };
  // zod refers to the shared ones as `<SHARED>#/$defs/<id>`: as components they are `#/components/schemas/<id>`.
  const text = JSON.stringify(components).replaceAll(`"${SHARED}#/$defs/`, `"${SCHEMAS}`);
  return Object.fromEntries(
    Object.entries(JSON.parse(text) as Record<string, JsonSchema>).map(([id, schema]) => {
      const { $schema: _dialect, $id: _id, ...rest } = schema;
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

/** The multipart form of a JSON body: the same fields, its image fields as file parts. */
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

/** Every named schema of the document; `requestOf`: each tool's request schema. */
export function schemaComponents(requestOf: ToolRequestSchemaOf): Record<string, JsonSchema> {
  const toolRequests: Record<string, z.ZodType> = Object.fromEntries(
    TOOLS.map((tool) => [requestName(tool), requestOf(tool.id)]),
  );
  const requests = Object.fromEntries(
    Object.entries(componentsOf({ ...toolRequests, ...REQUEST_SCHEMAS }, 'input')).map(([name, body]) => [
      name,
      defaultsAsWords(body),
    ]),
  );
  const multipart = Object.fromEntries(
    TOOLS.map((tool) => [
      multipartName(tool),
      multipartOf(requests[requestName(tool)] as JsonSchema, imageFieldsOf(requestOf(tool.id))),
    ]),
  );
  multipart.BatchImageMultipartRequest = multipartOf(requests.BatchImageRequest as JsonSchema, ['image']);
  multipart.RecipeRunImageMultipartRequest = multipartOf(requests.RecipeRunImageRequest as JsonSchema, ['image']);
  multipart.RefineMultipartRequest = multipartOf(requests.RefineRequest as JsonSchema, ['mask']);
  return { ...componentsOf(ANSWER_SCHEMAS, 'output'), ...requests, ...multipart };
}
