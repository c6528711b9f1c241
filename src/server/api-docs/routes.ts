// GET /api/openapi.json: the public API's description (openapi.ts), for client generators and the
// /developers page. Public (no key, no session) and cacheable: it changes only with a deploy.
import { Hono } from 'hono';
import { OPENAPI_DOCUMENT_PATH } from '../../contract/routes';
import { type ApiRoutes, buildOpenApiDocument, type OpenApiSources } from './openapi';

/** Under the API's /api. */
const OPENAPI_PATH = OPENAPI_DOCUMENT_PATH.replace(/^\/api/, '');

/**
 * `routes`: the whole server's routes (the root app's `app.routes`), read when the document is first
 * asked for, once every route is mounted; it documents those that declare an operation.
 */
export function apiDocsRoutes(options: Omit<OpenApiSources, 'routes'> & { routes: () => ApiRoutes }) {
  let body: string | undefined;
  return new Hono().get(OPENAPI_PATH, (c) => {
    // Built once per process: the routes and the providers serving the tools are fixed at start.
    body ??= JSON.stringify(buildOpenApiDocument({ ...options, routes: options.routes() }));
    c.header('Cache-Control', 'public, max-age=300');
    c.header('Access-Control-Allow-Origin', '*');
    return c.body(body, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });
}
