// A route of the public API declares its entry in the OpenAPI document where it is defined
// (decision 067): `app.get(path, describeRoute({...}), handler)`. describeRoute is a middleware that
// only passes the request on; the operation rides on the function, and the document (openapi.ts)
// is built by walking the mounted app's `app.routes`, which lists every handler of every route. So
// a route is documented by a line beside it, and no second list of operations is kept.
import type { MiddlewareHandler } from 'hono';

export type JsonSchema = Record<string, unknown>;
export type Header = { description: string; schema: JsonSchema } | { $ref: string };
export type Response = {
  description: string;
  headers?: Record<string, Header>;
  /** By media type: `{ 'application/json': { schema } }`. */
  content?: Record<string, { schema: JsonSchema }>;
};

/** Who may call an operation: with a key or a session, with a session only (keys cannot manage keys), or anyone. */
export type Access = 'key-or-session' | 'session' | 'public';

/** An operation of the OpenAPI document, without its method and path (the route's own). */
export type OperationDoc = {
  operationId: string;
  tag: string;
  summary: string;
  description?: string;
  access: Access;
  parameters?: JsonSchema[];
  /** The request body by media type, each a schema (usually a component's `$ref`). */
  body?: Record<string, JsonSchema>;
  responses: Record<string, Response>;
};

const OPERATION = Symbol('OpenAPI operation');

type Described = MiddlewareHandler & { [OPERATION]: () => OperationDoc };

/**
 * The route's operation, for the document; passes every request on. A function is read when the
 * document is first built (for what the server knows only once it runs, such as a tool's price).
 */
export function describeRoute(operation: OperationDoc | (() => OperationDoc)): MiddlewareHandler {
  const passOn: MiddlewareHandler = async (_c, next) => {
    await next();
  };
  return Object.assign(passOn, { [OPERATION]: typeof operation === 'function' ? operation : () => operation });
}

/** A documented route: its method and its path as OpenAPI writes it (`/api/jobs/{id}`). */
export type DescribedRoute = { method: string; path: string; operation: OperationDoc };

/** The routes of `routes` (a mounted app's `app.routes`) that carry an operation. */
export function describedRoutes(routes: readonly { method: string; path: string; handler: unknown }[]) {
  const found: DescribedRoute[] = [];
  for (const route of routes) {
    const handler = route.handler as Partial<Described>;
    const operation = handler[OPERATION];
    if (!operation) continue;
    found.push({
      method: route.method.toLowerCase(),
      path: route.path.replace(/:(\w+)/g, '{$1}'),
      operation: operation(),
    });
  }
  return found;
}
