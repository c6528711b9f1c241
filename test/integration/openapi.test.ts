// GET /api/openapi.json (issue 39): a valid OpenAPI 3.1 document that describes every tool route the
// server mounts, from which a common generator (openapi-typescript) makes a client that typechecks
// a call of each tool, and refuses a wrong one.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Validator } from '@seriousme/openapi-schema-validator';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS } from '../../src/contract/tools';
import { createTestBackend, type TestBackend } from '../support/test-backend';

// biome-ignore lint/suspicious/noExplicitAny: the parsed document, walked as JSON
type Json = Record<string, any>;

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

  it('describes every tool route the server mounts, with a JSON and a multipart body and every status', () => {
    const mountedToolPosts = backend.app.routes
      .filter((route) => route.method === 'POST' && TOOLS.some((tool) => `/api${tool.apiPath}` === route.path))
      .map((route) => route.path);
    expect(new Set(mountedToolPosts)).toEqual(new Set(TOOLS.map((tool) => `/api${tool.apiPath}`)));
    for (const route of mountedToolPosts) {
      const operation = document.paths[route]?.post;
      expect(operation, route).toBeDefined();
      expect(Object.keys(operation.requestBody.content)).toEqual(['application/json', 'multipart/form-data']);
      expect(Object.keys(operation.responses)).toEqual(
        expect.arrayContaining(['200', '202', '400', '401', '402', '403', '409', '429']),
      );
      expect(Object.keys(operation.responses['429'].headers)).toEqual(
        expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']),
      );
      expect(operation.security).toEqual([{ apiKey: [] }, { session: [] }]);
    }
  });

  it('every other operation it lists is a route of this server', () => {
    const mounted = new Set(
      backend.app.routes.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`),
    );
    for (const [route, item] of Object.entries<Json>(document.paths)) {
      for (const method of Object.keys(item))
        expect(mounted, `${method} ${route}`).toContain(`${method.toUpperCase()} ${route}`);
    }
  });

  it("states each tool's title and cost, and sends its images as files in the multipart body", () => {
    const bgRemover = document.paths['/api/remove-background'].post;
    expect(bgRemover.summary).toBe('Background Remover');
    const { cost } = TOOLS.find((tool) => tool.id === 'background-remover') ?? { cost: Number.NaN };
    expect(bgRemover.description).toContain(`**Cost:** ${cost} tokens per request`);
    expect(Object.keys(bgRemover.responses['200'].content)).toEqual([
      'application/json',
      'image/png',
      'image/jpeg',
      'image/webp',
      'image/avif',
    ]);
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

  describe('a TypeScript client generated by openapi-typescript', () => {
    let dir: string;
    beforeAll(async () => {
      dir = mkdtempSync(path.join(tmpdir(), 'pp-openapi-'));
      writeFileSync(path.join(dir, 'api.d.ts'), astToString(await openapiTS(document as never)));
    }, 60_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    /** The compiler's diagnostics of `source` beside the generated types. */
    function diagnosticsOf(source: string): string[] {
      const file = path.join(dir, `call-${Math.random().toString(36).slice(2)}.ts`);
      writeFileSync(file, source);
      const program = ts.createProgram([file], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        types: [],
        lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      });
      return ts
        .getPreEmitDiagnostics(program)
        .map(
          (d) =>
            `${d.file ? path.basename(d.file.fileName) : ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
        );
    }

    /** A value of a required field, from the document's own schema. */
    function sampleOf(name: string, schema: Json): unknown {
      if (schema.const !== undefined) return schema.const;
      if (schema.enum) return schema.enum[0];
      if (schema.anyOf) return sampleOf(name, schema.anyOf[0]);
      if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
      return name === 'prompt' ? 'a red fox in the snow' : 'data:image/png;base64,iVBORw0KGgo=';
    }

    it('typechecks a JSON and a multipart call of each tool, and reads its answer', () => {
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
      const source = `import type { paths } from './api';\n${calls.join('\n')}\n`;
      expect(diagnosticsOf(source)).toEqual([]);
    });

    it('gives a diagnostic for a wrong call (a number as the prompt, no image)', () => {
      const wrong = `import type { paths } from './api';
export const a: paths['/api/generate-image']['post']['requestBody']['content']['application/json'] = { prompt: 42 };
export const b: paths['/api/remove-background']['post']['requestBody']['content']['application/json'] = {};
`;
      const diagnostics = diagnosticsOf(wrong);
      expect(diagnostics).toHaveLength(2);
      expect(diagnostics[0]).toMatch(/number.*string/);
      expect(diagnostics[1]).toMatch(/image/);
    });
  });
});
