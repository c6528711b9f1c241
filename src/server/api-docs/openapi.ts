// The OpenAPI 3.1 document of the public API (issue 39), built from the routes themselves (decision
// 067): every route of the public API declares its operation where it is defined
// (`describeRoute`), and the document is the operations found on the mounted app's routes, with
// the schemas of components.ts (generated from the contract's zod schemas). What every operation
// may answer before its route runs (the address checks, the key gate, the Origin check, the body
// limit, Node's header limit) is added here, once.
import { API_ERROR_STATUSES } from '../../contract/api-errors';
import { INPUT_MESSAGES } from '../../contract/input-limits';
import { toolCountInWords } from '../../contract/tool-count';
import { refusal, schemaComponents, type ToolRequestSchemaOf } from './components';
import { type Access, type DescribedRoute, describedRoutes, type JsonSchema, type Response } from './describe-route';

export type ApiRoutes = readonly { method: string; path: string; handler: unknown }[];

const SECURITY: Record<Access, JsonSchema[]> = {
  'key-or-session': [{ apiKey: [] }, { session: [] }],
  session: [{ session: [] }],
  public: [],
};

const TAGS = [
  { name: 'Tools', description: `The ${toolCountInWords()} tools: each call makes a job and takes its tokens.` },
  { name: 'Jobs', description: 'Jobs, their files and the list of creations.' },
  { name: 'Batches', description: 'Many images through one tool, each its own job.' },
  { name: 'Recipes', description: 'Named chains of image tools, run on an image or a batch: each step its own job.' },
  { name: 'Account', description: 'The balance.' },
  { name: 'Keys', description: 'API keys (a session only).' },
  { name: 'Webhooks', description: "The account's webhook signing secret (a session only), and the deliveries." },
  { name: 'Server', description: 'What this server offers: anyone may read it.' },
];

const SAFE_METHODS = new Set(['get', 'head', 'options']);

/** What an operation may answer before its route runs, unless it says more of that status itself. */
function answersBeforeTheRoute({ method, operation }: DescribedRoute): Record<string, Response> {
  const { access } = operation;
  const changes = !SAFE_METHODS.has(method);
  return {
    '400': refusal(
      'The address has broken percent-encoding (a lone % or a cut character) or a control character (%00).',
    ),
    ...(access !== 'public'
      ? {
          '401': refusal(
            'No key and no session, or the key is unknown or revoked: send `Authorization: Bearer pp_...`.',
          ),
        }
      : {}),
    ...(access === 'session'
      ? {
          '403': refusal(
            changes
              ? 'A key cannot do this: it needs the site’s session; or the session cookie came from another site’s page (its Origin).'
              : 'A key cannot do this: it needs the site’s session (sign in on the site).',
          ),
        }
      : changes && access !== 'public'
        ? { '403': refusal('The session cookie came from another site’s page (its Origin is not this app’s).') }
        : {}),
    ...(changes ? { '413': refusal(`${INPUT_MESSAGES.requestTooLarge} (the body is over the limit).`) } : {}),
    '431': refusal(API_ERROR_STATUSES['431'] as string),
  };
}

function operationObject(route: DescribedRoute): JsonSchema {
  const { operation } = route;
  // The route's own answers first, then those before it of the statuses it does not state.
  const responses = { ...answersBeforeTheRoute(route), ...operation.responses };
  const ordered = Object.fromEntries(Object.entries(responses).sort(([a], [b]) => a.localeCompare(b)));
  return {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    ...(operation.description ? { description: operation.description } : {}),
    security: SECURITY[operation.access],
    ...(operation.parameters ? { parameters: operation.parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: Object.fromEntries(Object.entries(operation.body).map(([type, schema]) => [type, { schema }])),
          },
        }
      : {}),
    responses: ordered,
  };
}

/** What the document is made of: the mounted routes, and what no route describes. */
export type OpenApiSources = {
  /** The root app's `app.routes`: the operations of those that declare one (describeRoute). */
  routes: ApiRoutes;
  /** This server's public address (APP_URL). */
  serverUrl: string;
  version: string;
  /** The document's `webhooks`: what the server POSTs to callers (webhooks/api-docs.ts, handed in by app.ts). */
  webhooks: JsonSchema;
  /** Each tool's request schema, its body's components (its server module's `request`, handed in by app.ts). */
  toolRequests: ToolRequestSchemaOf;
};

/** The whole document. */
export function buildOpenApiDocument(options: OpenApiSources): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  // In the tags' order (the tools first), each tag's routes as they are mounted.
  const place = (route: DescribedRoute) => TAGS.findIndex((tag) => tag.name === route.operation.tag);
  for (const route of describedRoutes(options.routes).sort((a, b) => place(a) - place(b))) {
    paths[route.path] = { ...paths[route.path], [route.method]: operationObject(route) };
  }
  const integerHeader = (description: string) => ({ description, schema: { type: 'integer', minimum: 0 } });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Picture Palette API',
      version: options.version,
      description: `The ${toolCountInWords()} Picture Palette tools from code, at the same prices as the app. See /developers for a guide.`,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      contact: { name: 'Picture Palette', url: `${options.serverUrl}/developers` },
    },
    servers: [{ url: options.serverUrl }],
    tags: TAGS,
    paths,
    webhooks: options.webhooks,
    components: {
      schemas: schemaComponents(options.toolRequests),
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
