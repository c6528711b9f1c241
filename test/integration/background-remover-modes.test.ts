// Background Remover's modes (issue 58 item 3) through the real tool call: `mode: "mask"` is the
// matte as a one-channel PNG of the photo's size, `mode: "blur"` the photo with its background
// blurred and its subject kept; a cut-out's soft edge loses the old background's colour unless
// `cleanEdges: false` (item 2); contradictory or out-of-range fields are refused before any charge;
// the OpenAPI document lists them. The demo provider stands in for the model: it hands back the
// upload with its own alpha, so an upload with a known alpha is a cut-out with a known matte.
// PGlite only: the SQL is the tool call's, which the money tests run on both databases.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreationList } from '../../src/contract/creations';
import type { TestBackend } from '../support/test-backend';
import { dataUrl, paidToolsBackend, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  backend = await paidToolsBackend({ TOOL_CALLS_PER_MINUTE: '1000' });
});
afterAll(() => backend.stop());

type Answer = { success: boolean; output?: string; error?: string };

const [WIDTH, HEIGHT] = [240, 160];
/** The subject: the middle third of the picture, opaque; the rest transparent. */
const inSubject = (x: number, y: number) => x >= 80 && x < 160 && y >= 50 && y < 110;

/** An RGBA upload: black and white stripes 2 px wide everywhere (blurring them makes grey), alpha the subject's box. */
async function stripedCutOut(): Promise<Buffer> {
  const rgba = Buffer.alloc(WIDTH * HEIGHT * 4);
  for (let y = 0; y < HEIGHT; y++) {
    for (let x = 0; x < WIDTH; x++) {
      const at = (y * WIDTH + x) * 4;
      const value = Math.floor(x / 2) % 2 ? 255 : 0;
      rgba.fill(value, at, at + 3);
      rgba[at + 3] = inSubject(x, y) ? 255 : 0;
    }
  }
  return sharp(rgba, { raw: { width: WIDTH, height: HEIGHT, channels: 4 } })
    .png()
    .toBuffer();
}

async function removeBackground(extra: Record<string, unknown>, tokens = 20) {
  const { client } = await verifiedUser(backend, tokens);
  const answer = await client.post<Answer>('/api/remove-background', {
    image: dataUrl(await stripedCutOut()),
    ...extra,
  });
  return { client, answer };
}

async function outputOf(client: Awaited<ReturnType<typeof verifiedUser>>['client'], url: string) {
  const response = await client.fetchRaw(url);
  return { type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('mode', () => {
  it('"mask" hands back the matte: a one-channel PNG of the photo’s size, white subject on black', async () => {
    const { client, answer } = await removeBackground({ mode: 'mask' });
    expect(answer.status, answer.body.error).toBe(200);
    const file = await outputOf(client, answer.body.output ?? '');
    expect(file.type).toBe('image/png');
    const meta = await sharp(file.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['png', WIDTH, HEIGHT, 1]);
    // sharp decodes a grey file to RGB unless told to keep its one band.
    const data = await sharp(file.bytes).extractChannel(0).raw().toBuffer();
    expect(data[70 * WIDTH + 120]).toBe(255);
    expect(data[10 * WIDTH + 10]).toBe(0);
  });

  it('"blur" keeps the subject’s pixels and blurs the background, as a WebP photo without alpha', async () => {
    const { client, answer } = await removeBackground({ mode: 'blur', blurStrength: 60, outputFormat: 'png' });
    expect(answer.status, answer.body.error).toBe(200);
    const file = await outputOf(client, answer.body.output ?? '');
    const { data, info } = await sharp(file.bytes).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels]).toEqual([WIDTH, HEIGHT, 3]);
    const grey = (x: number, y: number) => data[(y * WIDTH + x) * 3] ?? -1;
    // Inside the subject (clear of its edge) the stripes are as they were.
    for (const x of [100, 101, 102, 103]) expect(grey(x, 80)).toBe(Math.floor(x / 2) % 2 ? 255 : 0);
    // Far from it the stripes are blurred into grey: no pixel near black or white.
    for (const x of [10, 11, 12, 13, 220, 221]) expect(Math.abs(grey(x, 20) - 128)).toBeLessThan(40);

    const { client: other, answer: byDefault } = await removeBackground({ mode: 'blur' });
    expect(byDefault.status, byDefault.body.error).toBe(200);
    expect((await outputOf(other, byDefault.body.output ?? '')).type).toBe('image/webp');
    const creations = await other.get<CreationList>('/api/creations?tool=background-remover');
    expect(creations.body.creations[0]?.settings).toMatchObject({ mode: 'blur', blurStrength: 50 });
  });
});

describe('clean edges', () => {
  /** A blue subject on the left whose soft edge (x 128-140) was photographed over red. */
  async function softEdgeOverRed(): Promise<Buffer> {
    const rgba = Buffer.alloc(WIDTH * HEIGHT * 4);
    for (let y = 0; y < HEIGHT; y++) {
      for (let x = 0; x < WIDTH; x++) {
        const at = (y * WIDTH + x) * 4;
        const a = Math.min(1, Math.max(0, (140 - x) / 12));
        rgba[at] = Math.round(a * 60 + (1 - a) * 230);
        rgba[at + 1] = Math.round(a * 90 + (1 - a) * 20);
        rgba[at + 2] = Math.round(a * 200 + (1 - a) * 20);
        rgba[at + 3] = Math.round(a * 255);
      }
    }
    return sharp(rgba, { raw: { width: WIDTH, height: HEIGHT, channels: 4 } })
      .png()
      .toBuffer();
  }

  /** The mean red of the cut-out's soft edge, less the subject's own 60. */
  async function redCastOf(extra: Record<string, unknown>) {
    const { client } = await verifiedUser(backend, 20);
    const answer = await client.post<Answer>('/api/remove-background', {
      image: dataUrl(await softEdgeOverRed()),
      ...extra,
    });
    expect(answer.status, answer.body.error).toBe(200);
    const file = await outputOf(client, answer.body.output ?? '');
    const { data } = await sharp(file.bytes).raw().toBuffer({ resolveWithObject: true });
    let [sum, count] = [0, 0];
    for (let x = 129; x < 139; x++) {
      sum += (data[(80 * WIDTH + x) * 4] ?? 0) - 60;
      count++;
    }
    return sum / count;
  }

  it("is on by default: the old background's red leaves the soft edge; cleanEdges false keeps the photo's pixels", async () => {
    const kept = await redCastOf({ cleanEdges: false });
    const cleaned = await redCastOf({});
    expect(kept).toBeGreaterThan(50);
    // The factor itself is the unit test's (edge-colours.test.ts); here: on unless asked off.
    expect(cleaned).toBeLessThan(kept / 3);
  });
});

describe('refusals charge nothing', () => {
  it.each([
    [{ mode: 'x' }, 'mode: must be one of cutout, blur, mask'],
    [{ mode: 'blur', blurStrength: 0 }, 'blurStrength: must be from 1 to 100'],
    [{ mode: 'blur', blurStrength: 101 }, 'blurStrength: must be from 1 to 100'],
    [{ mode: 'blur', background: '#ffffff' }, 'background: applies to mode "cutout" only, not to mode "blur"'],
    [{ mode: 'mask', size: 512 }, 'size: applies to mode "cutout" only, not to mode "mask"'],
    [{ blurStrength: 40 }, 'blurStrength: applies to mode "blur" only, not to mode "cutout"'],
    [{ mode: 'mask', outputFormat: 'webp' }, 'outputFormat: mode "mask" is a one-channel PNG'],
  ] as const)('%j', async (extra, error) => {
    const { client, answer } = await removeBackground(extra);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(error);
    expect(await tokensOf(client)).toBe(20);
    expect((await client.get<CreationList>('/api/creations')).body.creations).toEqual([]);
  });
});

describe('the OpenAPI document', () => {
  it('lists the mode, the blur strength and clean edges in the Background Remover’s request', async () => {
    const doc = (await (await backend.app.request('/api/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
    };
    const remover = doc.components.schemas.BackgroundRemoverRequest;
    expect(remover?.properties.mode?.enum).toEqual(['cutout', 'blur', 'mask']);
    expect(Object.keys(remover?.properties ?? {})).toEqual(expect.arrayContaining(['blurStrength', 'cleanEdges']));
  });
});
