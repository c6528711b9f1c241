// A throwaway eleventh tool on the server (issue 56): "Sketch Maker" (test/fixtures/throwaway-tool/),
// added as docs/adding-a-tool.md adds one: its definition appended to the contract's list
// (contract/tool-list.ts) and its module to the server's (server/tools/tool-modules.ts), and nothing
// else. Everything the server shows of a tool follows from those two lists: GET /api/tools, its route
// through the real tool-call path at its price, its refusals, and the OpenAPI document. The web half
// is src/web/features/tools/throwaway-tool.test.tsx.
import { Validator } from '@seriousme/openapi-schema-validator';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IMAGE_FIELD_MESSAGE } from '../../src/contract/tool-requests';
import { jobs, ledger } from '../../src/server/db/schema';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { sketchMaker } from '../fixtures/throwaway-tool/contract';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

vi.mock('../../src/contract/tool-list', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/contract/tool-list')>();
  const { sketchMaker: definition } = await import('../fixtures/throwaway-tool/contract');
  return { ...original, TOOL_LIST: [...original.TOOL_LIST, definition] };
});

vi.mock('../../src/server/tools/tool-modules', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/server/tools/tool-modules')>();
  const { sketchMakerServer } = await import('../fixtures/throwaway-tool/server');
  return { ...original, TOOL_MODULES: [...original.TOOL_MODULES, sketchMakerServer] };
});

// biome-ignore lint/suspicious/noExplicitAny: the parsed document, walked as JSON
type Json = Record<string, any>;

const PATH = `/api${sketchMaker.apiPath}`;
/** A provider that answers at once with an image, under a paid provider's name: the call is charged. */
const provider = instantProvider();

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend({ inference: routerWith(provider) });
});
afterAll(() => backend.stop());
afterEach(async () => {
  expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
});

describe('an eleventh tool, added to the two server lists only', () => {
  it('is listed by GET /api/tools after the ten, with its price on this server', async () => {
    const answer = await backend.app.request('/api/tools');
    const { tools } = (await answer.json()) as { tools: { id: string; price: number; freePreview: boolean }[] };
    expect(tools).toHaveLength(11);
    expect(tools.at(-1)).toMatchObject({ id: 'sketch-maker', price: 3, freePreview: false });
  });

  it('runs at its route through the tool-call path, charged its price once', async () => {
    const user = await verifiedUser(backend, 20);
    const answer = await user.client.post<{ success: boolean; output: string; balance: number; jobId: string }>(PATH, {
      image: dataUrl(await pngBytes(40, 30)),
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({ success: true, balance: 17 });
    expect(answer.body.output).toMatch(/^\/api\/files\//);
    expect(provider.calls.at(-1)).toMatchObject({ tool: 'sketch-maker', image: { width: 40, height: 30 } });
    expect(await tokensOf(user.client)).toBe(17);
    const [job] = await backend.database.db.select().from(jobs).where(eq(jobs.id, answer.body.jobId));
    expect(job).toMatchObject({ tool: 'sketch-maker', status: 'succeeded', cost: 3, charged: 3 });
    const debits = await backend.database.db.select().from(ledger).where(eq(ledger.userId, user.id));
    expect(debits.filter((row) => row.reason === 'job').map((row) => row.delta)).toEqual([-3]);
    const file = await user.client.request('GET', answer.body.output);
    expect(file.status).toBe(200);
  });

  it('refuses a bad body with a 400 sentence, nothing charged and no job', async () => {
    const user = await verifiedUser(backend, 20);
    for (const [body, error] of [
      [{}, 'image: is required'],
      [{ image: 'hello' }, `image: ${IMAGE_FIELD_MESSAGE}`],
      // Its definition's shortest side (image.minSide).
      [
        { image: dataUrl(await pngBytes(4, 4)) },
        'This image is 4 x 4 px; its shortest side must be at least 8 px. Please choose a larger image.',
      ],
    ] as const) {
      const answer = await user.client.post<{ success: boolean; error: string }>(PATH, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body).toMatchObject({ success: false, error });
    }
    expect(await tokensOf(user.client)).toBe(20);
    expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, user.id))).toEqual([]);
  });

  it('is in GET /api/openapi.json with its request bodies, and the document still validates', async () => {
    const document = (await (await backend.app.request('/api/openapi.json')).json()) as Json;
    expect(document.info.description).toContain('The eleven Picture Palette tools');
    const operation = document.paths[PATH]?.post;
    expect(operation?.requestBody.content).toEqual({
      'application/json': { schema: { $ref: '#/components/schemas/SketchMakerRequest' } },
      'multipart/form-data': { schema: { $ref: '#/components/schemas/SketchMakerMultipartRequest' } },
    });
    const json = document.components.schemas.SketchMakerRequest;
    expect(json.required).toContain('image');
    expect(Object.keys(json.properties)).toEqual(expect.arrayContaining(['image', 'outputFormat', 'webhook']));
    expect(document.components.schemas.SketchMakerMultipartRequest.properties.image).toMatchObject({
      type: 'string',
      format: 'binary',
    });
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });
});
