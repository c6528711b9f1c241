// GET /api/openapi.json (issues 39 and 52): a valid OpenAPI 3.1 document, built from the routes
// themselves (decision 067), that tools nobody here wrote accept (Spectral's `spectral:oas`, Redocly's
// `recommended`, openapi-typescript), whose every reference resolves, and that names every status the
// server really answers, each operation's prices as this server charges them and the webhook it sends.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json as JsonParser } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_BODY_MAX_BYTES } from '../../src/contract/input-limits';
import { METAMORPHOSE_SIZES, TOOLS, toolById } from '../../src/contract/tools';
import { keyMayCall } from '../../src/server/api-keys/key-gate';
import { listen } from '../../src/server/http-server';
import { webhookEventOf } from '../../src/server/webhooks/deliveries/webhook-deliveries';
import { type Exchange, openApiAnswers } from '../support/openapi-answers';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, finishedJobRow, pngBytes, verifiedUser } from '../support/tool-fixtures';
import { typeErrors } from '../support/typecheck';

// biome-ignore lint/suspicious/noExplicitAny: the parsed document, walked as JSON
type Json = Record<string, any>;

const documentOf = async (backend: TestBackend): Promise<Json> =>
  (await backend.app.request('/api/openapi.json')).json();

/** The routes the server mounts, as OpenAPI writes them: `GET /api/jobs/{id}`. */
function mountedRoutes(backend: TestBackend) {
  // app.routes has an entry per handler of a route: one each.
  const routes = new Map<string, { method: string; path: string; raw: string }>();
  for (const route of backend.app.routes) {
    if (!['GET', 'POST', 'DELETE', 'PUT', 'PATCH'].includes(route.method)) continue;
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    routes.set(`${route.method} ${path}`, { method: route.method, path, raw: route.path });
  }
  return [...routes.values()];
}

/** Every `$ref` in `value`, with where it is. */
function refsOf(value: unknown, at = '#'): { at: string; ref: string }[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, child]) =>
    key === '$ref' && typeof child === 'string' ? [{ at, ref: child }] : refsOf(child, `${at}/${key}`),
  );
}

/** The value a local reference points at, or undefined. */
function resolve(document: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Json)[key] : undefined), document);
}

describe('GET /api/openapi.json', () => {
  let backend: TestBackend;
  let document: Json;
  beforeAll(async () => {
    backend = await createTestBackend();
    const response = await backend.app.request('/api/openapi.json');
    expect(response.status).toBe(200);
    document = await response.json();
  });
  afterAll(() => backend.stop());

  it('is public, cacheable JSON, and needs no Origin', async () => {
    const response = await backend.app.request('/api/openapi.json', {
      headers: { Origin: 'https://elsewhere.example' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=300');
  });

  it('validates as OpenAPI 3.1 with a real validator', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it('a broken document does not validate (the check can fail)', async () => {
    const broken = structuredClone(document);
    broken.paths['/api/remove-background'].post.responses = 'none';
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('every $ref resolves to a part of the document: a sub-schema used twice is a named component', () => {
    const refs = refsOf(document);
    expect(refs.length).toBeGreaterThan(50);
    const broken = refs.filter(({ ref }) => resolve(document, ref) === undefined);
    expect(broken).toEqual([]);
    // The keys' list names its item by its own component (it was `__shared#/$defs/ApiKeySummary`).
    expect(document.components.schemas.ApiKeyList.properties.keys.items).toEqual({
      $ref: '#/components/schemas/ApiKeySummary',
    });
    expect(document.components.schemas.ApiKeySummary.required).toEqual(expect.arrayContaining(['id', 'name']));
  });

  it('has no error by Spectral (spectral:oas) or by Redocly (recommended)', async () => {
    const source = JSON.stringify(document);
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [oas as never] } as never);
    const spectralResults = await spectral.run(new Document(source, JsonParser, 'openapi.json'));
    const config = await createConfig({ extends: ['recommended'] });
    const redoclyProblems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    const said = [
      ...spectralResults.map(
        (r) => `spectral ${['error', 'warn', 'info', 'hint'][r.severity]} ${r.code} ${r.path.join('.')}: ${r.message}`,
      ),
      ...redoclyProblems.map((p) => `redocly ${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`),
    ];
    const errors = [
      ...spectralResults.filter((r) => r.severity === 0),
      ...redoclyProblems.filter((p) => p.severity === 'error'),
    ];
    expect(errors.length, said.join('\n')).toBe(0);
  });

  it('the linters find an error in a document with a broken reference (the check can fail)', async () => {
    const broken = structuredClone(document);
    broken.components.schemas.ApiKeyList.properties.keys.items = {
      $ref: '#/components/schemas/__shared#/$defs/ApiKeySummary',
    };
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [oas as never] } as never);
    const results = await spectral.run(new Document(JSON.stringify(broken), JsonParser, 'openapi.json'));
    expect(results.filter((r) => r.severity === 0).map((r) => r.code)).toContain('invalid-ref');
  });

  it('documents every route a key may call and every session-only key and webhook-secret route, and no other', () => {
    const documented = new Set(
      Object.entries<Json>(document.paths).flatMap(([route, item]) =>
        Object.keys(item).map((method) => `${method.toUpperCase()} ${route}`),
      ),
    );
    const mounted = mountedRoutes(backend);
    // A key's routes, as the key gate decides them over the paths the server mounts (an id for `:id`).
    const keyRoutes = mounted.filter(({ method, raw }) => keyMayCall(method, raw.replace(/:\w+/g, 'x')));
    const sessionOnly = mounted.filter(({ path }) => /^\/api\/(keys|webhook-secret)(\/|$)/.test(path));
    expect(keyRoutes.length).toBeGreaterThanOrEqual(TOOLS.length + 9);
    expect(sessionOnly.length).toBe(5);
    for (const { method, path } of [...keyRoutes, ...sessionOnly])
      expect(documented, `${method} ${path}`).toContain(`${method} ${path}`);
    // ... and nothing the server lacks.
    const routes = new Set(mounted.map(({ method, path }) => `${method} ${path}`));
    for (const route of documented) expect(routes, route).toContain(route);
  });

  it('describes every tool route with a JSON and a multipart body and its refusals', () => {
    for (const tool of TOOLS) {
      const operation = document.paths[`/api${tool.apiPath}`]?.post;
      expect(operation, tool.id).toBeDefined();
      expect(Object.keys(operation.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['200', '202', '400', '401', '402', '403', '409', '413', '415', '429', '431']),
      );
      expect(Object.keys(operation.responses['429'].headers)).toEqual(
        expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
      expect(operation.security).toEqual([{ apiKey: [] }, { session: [] }]);
      expect(operation.parameters.map((p: Json) => `${p.in} ${p.name}`)).toContain('header Prefer');
    }
    expect(document.paths['/api/analyze-image'].post.responses['406']).toBeDefined();
  });

  it('declares Prefer where the server reads it, and types every image answer by its media type', () => {
    expect(document.paths['/api/jobs/{id}'].get.parameters.map((p: Json) => p.name)).toContain('Prefer');
    const binaryImages = (content: Json) =>
      Object.entries<Json>(content)
        .filter(([type]) => type.startsWith('image/'))
        .map(([type, media]) => [type, media.schema]);
    const expected = ['image/png', 'image/jpeg', 'image/webp', 'image/avif'].map((type) => [
      type,
      { type: 'string', format: 'binary', contentMediaType: type },
    ]);
    expect(binaryImages(document.paths['/api/remove-background'].post.responses['200'].content)).toEqual(expected);
    expect(binaryImages(document.paths['/api/files/{id}'].get.responses['200'].content)).toEqual(expected);
    expect(Object.keys(document.paths['/api/files/{id}'].get.responses['200'].content)).not.toContain(
      'application/json',
    );
  });

  it('documents the multipart form of a batch image, and its 413 and 429', () => {
    const operation = document.paths['/api/batches/{id}/images'].post;
    expect(Object.keys(operation.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
    const form = resolve(document, operation.requestBody.content['multipart/form-data'].schema.$ref) as Json;
    expect(form.properties.image).toMatchObject({ type: 'string', format: 'binary' });
    expect(form.required).toEqual(expect.arrayContaining(['image', 'item', 'name']));
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['413', '415', '429']));
    expect(Object.keys(document.paths['/api/batches'].post.responses)).toEqual(expect.arrayContaining(['413', '429']));
  });

  it("gives Metamorphose's width and height as the sizes the server takes", () => {
    const { width, height } = document.components.schemas.MetamorphoseRequest.properties;
    const sizes = Object.values(METAMORPHOSE_SIZES);
    expect(new Set(width.enum)).toEqual(new Set(sizes.map((size) => size.width)));
    expect(new Set(height.enum)).toEqual(new Set(sizes.map((size) => size.height)));
    expect(width.type).toBe('integer');
  });

  it('describes the webhook delivery: the event the server sends and its signature headers', () => {
    const delivery = document.webhooks?.jobEnded?.post;
    expect(delivery).toBeDefined();
    expect(delivery.parameters.map((p: Json) => `${p.in} ${p.name}`)).toEqual([
      'header webhook-id',
      'header webhook-timestamp',
      'header webhook-signature',
    ]);
    // The body the server builds for an ended job validates against the document's event.
    const answers = openApiAnswers(document);
    expect(answers.webhookProblems(webhookEventOf(finishedJobRow('0b6e8d1e-6f1c-4d3f-9a53-1f6f0d5f2a11')))).toEqual([]);
    expect(answers.webhookProblems({ type: 'job.succeeded', timestamp: 'now', data: {} })).not.toEqual([]);
  });

  it("states each tool's title and sends its images as files in the multipart body", () => {
    const bgRemover = document.paths['/api/remove-background'].post;
    expect(bgRemover.summary).toBe('Background Remover');
    expect(Object.keys(bgRemover.responses['200'].headers)).toEqual(
      expect.arrayContaining(['X-Job-Id', 'X-Tokens-Charged', 'X-Tokens-Remaining']),
    );
    const schemas = document.components.schemas;
    expect(schemas.BackgroundRemoverRequest.properties.image).toMatchObject({ type: 'string' });
    expect(schemas.BackgroundRemoverMultipartRequest.properties.image).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    expect(schemas.MetamorphoseMultipartRequest.properties.main_face_image).toMatchObject({ format: 'binary' });
    // The contract's rules, not a copy: the prompt's bound and the defaults of the input side.
    expect(schemas.TextToPicRequest.required).toEqual(['prompt']);
    expect(schemas.TextToPicRequest.properties.prompt).toMatchObject({ maxLength: 2000 });
    // Defaults the server fills in stay optional for generated clients (said in words).
    expect(schemas.TextToPicRequest.properties.aspectRatio.description).toBe('Default: "1:1".');
    expect(schemas.TextToPicRequest.properties.webhook).toMatchObject({ type: 'string', format: 'uri' });
  });

  it('keys and the webhook secret need a session; a key may read jobs, files, creations and the balance', () => {
    expect(document.components.securitySchemes.apiKey).toMatchObject({ type: 'http', scheme: 'bearer' });
    for (const [route, method] of [
      ['/api/keys', 'post'],
      ['/api/keys', 'get'],
      ['/api/keys/{id}', 'delete'],
      ['/api/webhook-secret', 'get'],
      ['/api/webhook-secret/rotate', 'post'],
    ] as const) {
      expect(document.paths[route][method].security, `${method} ${route}`).toEqual([{ session: [] }]);
    }
    for (const route of ['/api/jobs/{id}', '/api/files/{id}', '/api/creations', '/api/profile']) {
      expect(document.paths[route].get.security, route).toEqual([{ apiKey: [] }, { session: [] }]);
    }
    expect(document.components.schemas.CreatedApiKey.required).toEqual(['id', 'name', 'key', 'createdAt']);
    expect(document.components.schemas.WebhookSecret.required).toEqual(['secret']);
  });

  describe('what the server answers, by the document', () => {
    const exchanges: Exchange[] = [];
    let key: string;
    let session: Awaited<ReturnType<typeof verifiedUser>>;

    /** Calls the app in-process and keeps the exchange for the document's check. */
    async function call(method: string, url: string, init: { headers?: Record<string, string>; body?: BodyInit } = {}) {
      const response = await backend.app.request(url, { method, headers: init.headers, body: init.body });
      const body = new Uint8Array(await response.arrayBuffer());
      const exchange = {
        method,
        url: `http://127.0.0.1${url}`,
        status: response.status,
        contentType: response.headers.get('content-type'),
        body,
      };
      exchanges.push(exchange);
      return exchange;
    }
    const withKey = (headers: Record<string, string> = {}) => ({ authorization: `Bearer ${key}`, ...headers });
    const jsonBody = (value: unknown) => ({ body: JSON.stringify(value) });

    beforeAll(async () => {
      session = await verifiedUser(backend, 200);
      const created = await session.client.post<{ key: string }>('/api/keys', { name: 'openapi test' });
      expect(created.status).toBe(201);
      key = created.body.key;
    });

    it('a call without credentials is a 401 (a program that forgot its key is told so), as documented', async () => {
      const toolCall = await call('POST', '/api/remove-background', {
        headers: { 'content-type': 'application/json' },
        ...jsonBody({ image: 'iVBORw0KGgo=' }),
      });
      expect(toolCall.status).toBe(401);
      const batch = await call('POST', '/api/batches', {
        headers: { 'content-type': 'application/json' },
        ...jsonBody({ tool: 'background-remover', size: 1 }),
      });
      expect(batch.status).toBe(401);
      expect((await call('GET', '/api/profile')).status).toBe(401);
      expect((await call('GET', '/api/profile', { headers: { authorization: 'Bearer pp_not_a_key' } })).status).toBe(
        401,
      );
      const problems = exchanges.flatMap((exchange) => openApiAnswers(document).problemsOf(exchange));
      expect(problems).toEqual([]);
    });

    it('drives each documented refusal and finds its status, media type and body in the document', async () => {
      const image = dataUrl(await pngBytes());
      const analyzer = `/api${toolById('image-analyzer').apiPath}`;
      // 415: neither JSON nor a form; 406: the Analyzer asked for an image only.
      expect(
        (
          await call('POST', '/api/remove-background', {
            headers: withKey({ 'content-type': 'text/plain' }),
            body: 'x',
          })
        ).status,
      ).toBe(415);
      expect(
        (
          await call('POST', analyzer, {
            headers: withKey({ 'content-type': 'application/json', accept: 'image/png' }),
            ...jsonBody({ image }),
          })
        ).status,
      ).toBe(406);
      // 400: a broken percent-encoding, a field wrong, `?format=` refused.
      expect((await call('GET', '/api/jobs/%E0%A4%A', { headers: withKey() })).status).toBe(400);
      expect(
        (
          await call('POST', '/api/remove-background?x=%', {
            headers: withKey({ 'content-type': 'application/json' }),
            ...jsonBody({ image }),
          })
        ).status,
      ).toBe(400);
      expect(
        (
          await call('POST', '/api/remove-background', {
            headers: withKey({ 'content-type': 'application/json' }),
            ...jsonBody({ image: 42 }),
          })
        ).status,
      ).toBe(400);
      const done = await call('POST', '/api/remove-background', {
        headers: withKey({ 'content-type': 'application/json', prefer: 'wait=30' }),
        ...jsonBody({ image }),
      });
      expect(done.status).toBe(200);
      const output = JSON.parse(new TextDecoder().decode(done.body)).output as string;
      expect((await call('GET', `${output}?format=bmp`, { headers: withKey() })).status).toBe(400);
      expect((await call('GET', output, { headers: withKey({ 'if-none-match': '"nothing"' }) })).status).toBe(200);
      // The image itself, when asked for.
      expect(
        (
          await call('POST', '/api/remove-background', {
            headers: withKey({ 'content-type': 'application/json', accept: 'image/png', prefer: 'wait=30' }),
            ...jsonBody({ image }),
          })
        ).status,
      ).toBe(200);
      // Batches: made, an image too large (413), one sent, a download, a missing one.
      const batch = await call('POST', '/api/batches', {
        headers: withKey({ 'content-type': 'application/json' }),
        ...jsonBody({ tool: 'background-remover', size: 2 }),
      });
      expect(batch.status).toBe(201);
      const batchId = JSON.parse(new TextDecoder().decode(batch.body)).id as string;
      const tooLarge = await call('POST', `/api/batches/${batchId}/images`, {
        headers: withKey({ 'content-type': 'application/json' }),
        body: JSON.stringify({ item: 0, name: 'big.png', image: 'A'.repeat(TOOL_BODY_MAX_BYTES + 1024) }),
      });
      expect(tooLarge.status).toBe(413);
      const form = new FormData();
      form.set('item', '0');
      form.set('name', 'IMG_0001.png');
      form.set('image', new Blob([await pngBytes()], { type: 'image/png' }), 'IMG_0001.png');
      expect((await call('POST', `/api/batches/${batchId}/images`, { headers: withKey(), body: form })).status).toBe(
        202,
      );
      expect(
        (
          await call('POST', `/api/batches/${batchId}/images`, {
            headers: withKey({ 'content-type': 'text/plain' }),
            body: 'x',
          })
        ).status,
      ).toBe(415);
      expect((await call('GET', `/api/batches/${batchId}`, { headers: withKey() })).status).toBe(200);
      expect(
        (await call('GET', '/api/batches/00000000-0000-4000-8000-000000000000', { headers: withKey() })).status,
      ).toBe(404);
      // A key where a session is needed.
      expect((await call('GET', '/api/keys', { headers: withKey() })).status).toBe(403);
      expect((await call('DELETE', `/api/batches/${batchId}`, { headers: withKey() })).status).toBe(403);
      // The public reads.
      for (const read of ['/api/tools', '/api/packages', '/api/config'])
        expect((await call('GET', read)).status).toBe(200);
      expect((await call('GET', '/api/creations?limit=0', { headers: withKey() })).status).toBe(400);

      const answers = openApiAnswers(document);
      expect(exchanges.flatMap((exchange) => answers.problemsOf(exchange))).toEqual([]);
    });

    it("a header too large is a documented 431 (Node's own limit, answered as JSON)", async () => {
      const server = await listen(backend.app.fetch, { port: 0, hostname: '127.0.0.1' });
      try {
        const { port } = server.address() as AddressInfo;
        const url = `http://127.0.0.1:${port}/api/profile`;
        const response = await fetch(url, { headers: { authorization: `Bearer ${key}`, 'x-big': 'a'.repeat(20_000) } });
        const exchange: Exchange = {
          method: 'GET',
          url,
          status: response.status,
          contentType: response.headers.get('content-type'),
          body: new Uint8Array(await response.arrayBuffer()),
        };
        expect(exchange.status).toBe(431);
        expect(openApiAnswers(document).problemsOf(exchange)).toEqual([]);
      } finally {
        await new Promise((done) => server.close(done));
      }
    });
  });

  describe('a TypeScript client generated by openapi-typescript', () => {
    let dir: string;
    /** Programs written against the generated types, by name: each test writes its own. */
    const programs = new Map<string, string>();
    let diagnostics: string[] | undefined;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'pp-openapi-'));
      writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(document as never)));
      programs.set('tool-calls.ts', toolCallsProgram());
      programs.set('wrong-calls.ts', WRONG_CALLS);
    }, 60_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /**
     * The compiler's diagnostics of the program `name`, beside the generated types. Every program of
     * this block is written before the first test asks (see below), so the compiler runs once for all:
     * loading TypeScript's DOM types was most of each check.
     */
    function diagnosticsOf(name: string): string[] {
      if (!diagnostics) {
        const files = [...programs].map(([file, source]) => {
          writeFileSync(path.join(dir, file), source);
          return path.join(dir, file);
        });
        diagnostics = typeErrors(files, dir);
      }
      return diagnostics.filter((line) => line.startsWith(`${name}:`));
    }

    /** A value of a required field, from the document's own schema. */
    function sampleOf(name: string, schema: Json): unknown {
      if (schema.const !== undefined) return schema.const;
      if (schema.enum) return schema.enum[0];
      if (schema.anyOf) return sampleOf(name, schema.anyOf[0]);
      if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
      return name === 'prompt' ? 'a red fox in the snow' : 'data:image/png;base64,iVBORw0KGgo=';
    }

    /** A JSON and a multipart call of each tool, with the required fields the document gives, reading its answer. */
    function toolCallsProgram(): string {
      const calls = TOOLS.map((tool, index) => {
        const route = `/api${tool.apiPath}`;
        const operation = document.paths[route].post;
        const body =
          document.components.schemas[operation.requestBody.content['application/json'].schema.$ref.split('/').pop()];
        const sample = Object.fromEntries(
          (body.required as string[]).map((field) => [field, sampleOf(field, body.properties[field])]),
        );
        return `
type Op${index} = paths['${route}']['post'];
const json${index}: Op${index}['requestBody']['content']['application/json'] = ${JSON.stringify({ ...sample, webhook: 'https://example.com/hook' })};
const form${index}: Op${index}['requestBody']['content']['multipart/form-data'] = ${JSON.stringify(sample)};
export async function call${index}(key: string): Promise<Op${index}['responses'][200]['content']['application/json']> {
  const response = await fetch('${route}', { method: 'POST', headers: { Authorization: 'Bearer ' + key, 'Content-Type': 'application/json' }, body: JSON.stringify(json${index}) });
  void form${index};
  return response.json();
}
export const jobOf${index} = (answer: Op${index}['responses'][200]['content']['application/json']): string => answer.jobId;`;
      });
      return `import type { paths } from './api';
${calls.join('\n')}
// The keys' list: each item a key's summary, not a broken reference.
export const keyNames = (list: paths['/api/keys']['get']['responses'][200]['content']['application/json']): string[] =>
  list.keys.map((summary) => summary.name);
`;
    }

    /** A number as the prompt, no image. */
    const WRONG_CALLS = `import type { paths } from './api';
export const a: paths['/api/generate-image']['post']['requestBody']['content']['application/json'] = { prompt: 42 };
export const b: paths['/api/remove-background']['post']['requestBody']['content']['application/json'] = {};
`;

    it('typechecks a JSON and a multipart call of each tool, and reads its answer', () => {
      expect(diagnosticsOf('tool-calls.ts')).toEqual([]);
    });

    it('gives a diagnostic for a wrong call (a number as the prompt, no image)', () => {
      const diagnostics = diagnosticsOf('wrong-calls.ts');
      expect(diagnostics).toHaveLength(2);
      expect(diagnostics[0]).toMatch(/number.*string/);
      expect(diagnostics[1]).toMatch(/image/);
    });
  });
});

describe("the document of a server by its provider: this server's prices and address", () => {
  it("gives the Creative Upscaler at 1 token on the local engine and 70 on Replicate, as GET /api/tools does, and a batch's 429", async () => {
    const tool = toolById('creative-upscaler');
    for (const [env, price] of [
      [{ INFERENCE_PROVIDER: 'local', APP_URL: 'https://local.example', TOOL_CALLS_PER_MINUTE: '1' }, 1],
      [{ INFERENCE_PROVIDER: 'replicate', REPLICATE_API_TOKEN: 'r8_test', APP_URL: 'https://pp.example' }, 70],
    ] as const) {
      const backend = await createTestBackend({ env });
      try {
        const document = await documentOf(backend);
        const tools = (await (await backend.app.request('/api/tools')).json()) as Json;
        expect(tools.tools.find((t: Json) => t.id === tool.id).price).toBe(price);
        const operation = document.paths[`/api${tool.apiPath}`].post;
        expect(operation.description).toContain(`**Cost:** ${price} token${price === 1 ? '' : 's'} per request`);
        expect(document.servers).toEqual([{ url: env.APP_URL }]);
        if ('TOOL_CALLS_PER_MINUTE' in env) {
          // One call a minute: a second batch within it is the documented 429.
          const { client } = await verifiedUser(backend, 100);
          const batch = { tool: 'background-remover', size: 1 };
          expect((await client.post('/api/batches', batch)).status).toBe(201);
          const again = await backend.app.request('/api/batches', {
            method: 'POST',
            headers: { cookie: client.cookieHeader(), origin: env.APP_URL, 'content-type': 'application/json' },
            body: JSON.stringify(batch),
          });
          expect(again.status).toBe(429);
          const exchange: Exchange = {
            method: 'POST',
            url: `${env.APP_URL}/api/batches`,
            status: again.status,
            contentType: again.headers.get('content-type'),
            body: new Uint8Array(await again.arrayBuffer()),
          };
          expect(openApiAnswers(document).problemsOf(exchange)).toEqual([]);
        }
      } finally {
        await backend.stop();
      }
    }
  }, 60_000);
});
