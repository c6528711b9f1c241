// Issue 52, items 4 and 5. Text: JSON's \u0000 escapes (and a form's raw bytes) reached PostgreSQL
// in a batch image's name or a webhook URL and failed the insert (a 500); every text field a client
// sends now refuses a control character with a 400 that names the field, before anything is charged
// or stored. Images: every image field of every tool takes the file's base64 and a data URL alike
// (the Colorizer and the Image Upscaler took only a data URL), and refuses anything else with one
// sentence. Runs on both databases.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_PATHS } from '../../src/contract/batches';
import { unstorableTextError } from '../../src/contract/text';
import { IMAGE_FIELD_MESSAGE, imageFieldsOf as imageFieldsOfSchema } from '../../src/contract/tool-requests';
import { TOOLS, type ToolId } from '../../src/contract/tools';
import { jobs } from '../../src/server/db/schema';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { unitPrice } from '../../src/server/pricing/prices';
import { CONTROL_CHARACTER_URL_ERROR } from '../../src/server/security/url-encoding';
import { serverTool } from '../../src/server/tools/registry';
import type { TestClient } from '../support/http-client';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

/** NUL, which PostgreSQL cannot store, and two C0 controls that break what reads the text later. */
const CONTROLS = ['\u0000', '\u0001', '\u001b'];

let backend: TestBackend;
let user: { client: TestClient; id: string };
let png: Buffer;

beforeAll(async () => {
  // Answers at once under a paid provider's name: every call is charged, and a call that got through shows.
  backend = await createTestBackend({ inference: routerWith(instantProvider()) });
  user = await verifiedUser(backend, 1000);
  png = await pngBytes(40, 30);
});
afterAll(() => backend.stop());
afterEach(async () => {
  expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
});

/** A tool's request schema, as its server module carries it. */
const requestOf = (tool: ToolId) => serverTool(tool).request;
const imageFieldsOf = (tool: ToolId) => imageFieldsOfSchema(requestOf(tool));

const apiPathOf = (tool: ToolId) => `/api${TOOLS.find((t) => t.id === tool)?.apiPath}`;

/** A body `tool` takes, its images as `image` (a data URL, which every tool took before issue 52, unless a test says otherwise). */
function validBody(tool: ToolId, image = dataUrl(png)): Record<string, unknown> {
  const body: Record<string, unknown> = 'prompt' in requestOf(tool).shape ? { prompt: 'a fox' } : {};
  for (const field of imageFieldsOf(tool)) body[field] = image;
  if (tool === 'image-upscaler') body.scale = 2;
  return body;
}

const jobsOfUser = () => backend.database.db.select().from(jobs).where(eq(jobs.userId, user.id));

/** POSTs a multipart form as the signed-in user (the Content-Type and boundary FormData sets). */
async function postForm(path: string, form: FormData) {
  const response = await backend.app.request(path, {
    method: 'POST',
    headers: { origin: backend.config.appUrl, 'x-forwarded-for': user.client.ip, cookie: user.client.cookieHeader() },
    body: form,
  });
  return { status: response.status, body: (await response.json()) as { error?: string } };
}

const pngFile = () => new Blob([new Uint8Array(png)], { type: 'image/png' });

const formOf = (fields: Record<string, string | Blob>) => {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
};

/** Runs `send` and expects the refusal `error`, with no token taken and no job made. */
async function expectRefused(
  label: string,
  send: () => Promise<{ status: number; body: unknown }>,
  error: string,
  status = 400,
) {
  const before = await tokensOf(user.client);
  const jobsBefore = (await jobsOfUser()).length;
  const answer = await send();
  expect(answer.status, label).toBe(status);
  expect((answer.body as { error?: string }).error, label).toBe(error);
  expect(await tokensOf(user.client), label).toBe(before);
  expect((await jobsOfUser()).length, label).toBe(jobsBefore);
}

describe('a control character in any text field is a 400 that names the field', () => {
  for (const { id: tool } of TOOLS) {
    it(`${tool}: each text field, with NUL, U+0001 and U+001B`, async () => {
      const images = imageFieldsOf(tool);
      // Every field but its images (checked as images) and the prompt (its own sentence, tool-bad-input.test.ts).
      const fields = Object.keys(requestOf(tool).shape).filter((f) => f !== 'prompt' && !images.includes(f));
      expect(fields).toContain('webhook');
      for (const field of fields) {
        for (const control of CONTROLS) {
          const body = { ...validBody(tool), [field]: `https://example.com/x${control}y` };
          const label = `${tool} ${field} ${JSON.stringify(control)}`;
          await expectRefused(label, () => user.client.post(apiPathOf(tool), body), unstorableTextError(field));
        }
      }
    }, 60_000);
  }

  it('a webhook URL with a NUL, as JSON and as multipart', async () => {
    const webhook = 'http://127.0.0.1:9/hook\u0000';
    const error = unstorableTextError('webhook');
    await expectRefused(
      'JSON',
      () => user.client.post('/api/colorize-image', { ...validBody('colorizer'), webhook }),
      error,
    );
    await expectRefused(
      'multipart',
      () => postForm('/api/colorize-image', formOf({ image: pngFile(), webhook })),
      error,
    );
  });

  it("a batch image's name and webhook with a NUL or a control, as JSON and as multipart; the batch still takes the image", async () => {
    const created = await user.client.post<{ id: string }>('/api/batches', { tool: 'colorizer', size: 1 });
    expect(created.status).toBe(201);
    const path = `/api${BATCH_PATHS.images(created.body.id)}`;
    for (const control of CONTROLS) {
      for (const [field, value] of [
        ['name', `IMG_0412${control}.jpg`],
        ['webhook', `http://127.0.0.1:9/hook${control}`],
      ] as const) {
        const label = `${field} ${JSON.stringify(control)}`;
        const fields = { item: '0', name: 'IMG_0412.jpg', [field]: value };
        await expectRefused(
          `${label}, JSON`,
          () => user.client.post(path, { ...validBody('colorizer'), ...fields, item: 0 }),
          unstorableTextError(field),
        );
        await expectRefused(
          `${label}, multipart`,
          () => postForm(path, formOf({ image: pngFile(), ...fields })),
          unstorableTextError(field),
        );
      }
    }
    // Nothing of the batch was spent by the refusals: its one image is taken, and charged once.
    const before = await tokensOf(user.client);
    const sent = await user.client.post(path, { ...validBody('colorizer'), item: 0, name: 'IMG_0412.jpg' });
    expect(sent.status).toBe(202);
    expect(before - (await tokensOf(user.client))).toBe(unitPrice('colorizer', 'local'));
  });

  it('an Idempotency-Key with a control character', async () => {
    await expectRefused(
      'Idempotency-Key',
      () =>
        user.client.request('POST', '/api/colorize-image', {
          body: validBody('colorizer'),
          headers: { 'idempotency-key': 'order-7\u0001' },
        }),
      unstorableTextError('Idempotency-Key'),
    );
  });

  it('an address with %00 in its path or query, wherever it would reach the database', async () => {
    for (const [method, path] of [
      ['POST', '/api/purchases/cs_test%00/cancel'],
      ['GET', '/api/creations?cursor=abc%00'],
      ['GET', '/api/creations?tool=colorizer%1B'],
      ['GET', '/api/jobs?before=2026%00'],
      ['DELETE', '/api/keys/key%00'],
    ] as const) {
      const answer = await user.client.request<{ error: string }>(method, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.error, path).toBe(CONTROL_CHARACTER_URL_ERROR);
    }
  });

  it('the sign-in pages: an email or a token with a NUL', async () => {
    for (const [path, body, field] of [
      ['/api/auth/sign-up/email', { email: 'nul\u0000@example.com', password: 'correct horse 42', name: 'N' }, 'email'],
      ['/api/auth/reset-password', { token: 'abc\u0000', newPassword: 'correct horse 42' }, 'token'],
      ['/api/auth/revoke-session', { token: 'abc\u0000' }, 'token'],
    ] as const) {
      const answer = await user.client.post<{ message: string }>(path, body);
      expect(answer.status, path).toBe(400);
      expect(answer.body.message, path).toBe(unstorableTextError(field));
    }
  });
});

describe('one rule for images: base64 or a data URL, the same for every tool', () => {
  const imageTools = TOOLS.map((t) => t.id).filter((tool) => imageFieldsOf(tool).length > 0);

  it('covers every image tool', () => {
    expect(imageTools).toHaveLength(8);
  });

  for (const tool of imageTools) {
    it(`${tool}: each image field as base64 and as a data URL is taken and charged once; anything else is one sentence`, async () => {
      for (const [form, image] of [
        ['base64', png.toString('base64')],
        ['data URL', dataUrl(png)],
        ['data URL with parameters', `data:image/png;name=a.png;base64,${png.toString('base64')}`],
      ] as const) {
        const before = await tokensOf(user.client);
        const jobsBefore = (await jobsOfUser()).length;
        const answer = await user.client.post<{ success: boolean; error?: string }>(
          apiPathOf(tool),
          validBody(tool, image),
        );
        expect(answer.status, `${tool} ${form}: ${answer.body.error}`).toBe(200);
        expect(before - (await tokensOf(user.client)), `${tool} ${form}`).toBe(unitPrice(tool, 'local'));
        expect((await jobsOfUser()).length, `${tool} ${form}`).toBe(jobsBefore + 1);
      }
      for (const field of imageFieldsOf(tool)) {
        for (const bad of [
          'hello',
          'data:image/png,iVBORw0KGgo=',
          `data:image/png;base64,${png.toString('base64')}!`,
          `${png.toString('base64')}\u0000`,
          '/api/files/not-a-file',
          42,
        ]) {
          await expectRefused(
            `${tool} ${field} ${JSON.stringify(bad).slice(0, 40)}`,
            () => user.client.post(apiPathOf(tool), { ...validBody(tool), [field]: bad }),
            `${field}: ${IMAGE_FIELD_MESSAGE}`,
          );
        }
      }
    }, 60_000);
  }
});
