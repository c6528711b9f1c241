// GET /api/openapi.json: the public API's description (openapi.ts), for client generators and the
// /developers page. Public (no key, no session) and cacheable: it changes only with a deploy.
import { Hono } from 'hono';
import { OPENAPI_DOCUMENT_PATH } from '../../contract/routes';
import { buildOpenApiDocument } from './openapi';

/** Under the API's /api. */
const OPENAPI_PATH = OPENAPI_DOCUMENT_PATH.replace(/^\/api/, '');

export function apiDocsRoutes(options: { serverUrl: string; version: string }) {
  // Built once per process: the document depends on the contract and these two values only.
  const body = JSON.stringify(buildOpenApiDocument(options));
  return new Hono().get(OPENAPI_PATH, (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    c.header('Access-Control-Allow-Origin', '*');
    return c.body(body, 200, { 'Content-Type': 'application/json; charset=utf-8' });
  });
}
