// Image Upscaler to a size (issue 58 item 4, decisions 081 and 084) through the real tool-call path: a
// phone photo made exactly A4 at 300 DPI with the DPI in the file, a 12 MP one that has the pixels
// (resized, no model run), an 8 MP one past 2x's input limit (made smaller, then the model), a width
// kept to the photo's aspect, the refusals that charge nothing, and the fields in the OpenAPI document.
// PGlite only: the SQL is the tool call's, which the money tests run on both databases.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreationList } from '../../src/contract/creations';
import type { InferenceProvider, ProviderInput } from '../../src/server/inference/provider';
import type { TestClient } from '../support/http-client';
import { phoneJpeg } from '../support/phone-photos';
import { jpegPrint, printFacts } from '../support/print-file';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, paidLookalikeOfDemo, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
let photo: string;
/** A 12 MP phone photo (4000 x 3000, about 6 MB), and an 8 MP one cropped from it, stored turned as a phone's portrait is. */
let twelveMp: string;
let eightMpPortrait: string;
/** What the model was asked to run on: each call's tool input. */
const modelCalls: ProviderInput[] = [];
beforeAll(async () => {
  // A paid provider (the demo's drawings under a paid name): the charge is seen, and each model run.
  const paid = paidLookalikeOfDemo();
  const counted: InferenceProvider = {
    ...paid,
    run: (input, signal) => {
      modelCalls.push(input);
      return paid.run(input, signal);
    },
  };
  backend = await createTestBackend({ env: { TOOL_CALLS_PER_MINUTE: '1000' }, inference: routerWith(counted) });
  // A 3 MP phone photo, landscape, as a camera's JPEG.
  photo = dataUrl(await phoneJpeg({ width: 2048, height: 1536 }), 'image/jpeg');
  const twelve = await phoneJpeg({ width: 4000, height: 3000 });
  twelveMp = dataUrl(twelve, 'image/jpeg');
  // 3264 x 2448 stored, EXIF orientation 6: a portrait of 2448 x 3264 as a viewer shows it.
  const eight = await sharp(twelve)
    .extract({ left: 368, top: 276, width: 3264, height: 2448 })
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toBuffer();
  eightMpPortrait = dataUrl(eight, 'image/jpeg');
}, 120_000);
afterAll(() => backend.stop());

type Answer = { success: boolean; output?: string; error?: string; jobId?: string };

const upscale = (client: TestClient, body: Record<string, unknown>) =>
  client.post<Answer>('/api/upscale-image', { image: photo, ...body });

async function resultOf(client: TestClient, answer: { body: Answer }) {
  const response = await client.fetchRaw(answer.body.output ?? '');
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { bytes, meta: await sharp(bytes).metadata() };
}

describe('Image Upscaler to a size', () => {
  it('a 3 MP phone photo to A4 at 300 DPI as JPEG: 3508 x 2480 (landscape, as the photo), 300 DPI in JFIF and EXIF, charged as 2x', async () => {
    const { client } = await verifiedUser(backend, 20);
    const answer = await upscale(client, { printSize: 'a4', dpi: 300, outputFormat: 'jpeg' });
    expect(answer.status).toBe(200);
    expect(await printFacts((await resultOf(client, answer)).bytes)).toEqual(jpegPrint([3508, 2480], 300));
    // The price of one upscale, whatever the scale.
    expect(await tokensOf(client)).toBe(19);
    const creations = await client.get<CreationList>('/api/creations');
    expect(creations.body.creations[0]?.settings).toMatchObject({ scale: 2, printSize: 'a4', dpi: 300 });
  });

  it('a 12 MP phone photo to A4 at 300 DPI: no model run, resized and cropped to exactly 3508 x 2480, 300 DPI in JFIF and EXIF, charged as one upscale', async () => {
    const { client } = await verifiedUser(backend, 20);
    const runsBefore = modelCalls.length;
    const answer = await upscale(client, { image: twelveMp, printSize: 'a4', dpi: 300, outputFormat: 'jpeg' });
    expect(answer.status).toBe(200);
    expect(await printFacts((await resultOf(client, answer)).bytes)).toEqual(jpegPrint([3508, 2480], 300));
    expect(modelCalls.length).toBe(runsBefore);
    expect(await tokensOf(client)).toBe(19);
    const creations = await client.get<CreationList>('/api/creations');
    expect(creations.body.creations[0]?.settings).toMatchObject({ printSize: 'a4', dpi: 300, withoutModel: true });
    expect(creations.body.creations[0]?.settings).not.toHaveProperty('scale');
  });

  it('a 12 MP phone photo to a smaller width with no format asked: resized, no model, the tool’s webp', async () => {
    const { client } = await verifiedUser(backend, 20);
    const runsBefore = modelCalls.length;
    const answer = await upscale(client, { image: twelveMp, targetWidth: 3000 });
    expect(answer.status).toBe(200);
    const { meta } = await resultOf(client, answer);
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 3000, 2250]);
    expect(modelCalls.length).toBe(runsBefore);
  });

  it('an 8 MP portrait past 2x’s input limit to US Letter at 300 DPI: made 1275 x 1650 for the model at 2x, then exactly 2550 x 3300 at 300 DPI', async () => {
    const { client } = await verifiedUser(backend, 20);
    const runsBefore = modelCalls.length;
    const answer = await upscale(client, { image: eightMpPortrait, printSize: 'letter', outputFormat: 'jpeg' });
    expect(answer.status).toBe(200);
    expect(await printFacts((await resultOf(client, answer)).bytes)).toEqual(jpegPrint([2550, 3300], 300));
    // One real model run, on the photo made upright and smaller: half the print, within 2x's 2048 x 2048.
    const runs = modelCalls.slice(runsBefore) as (ProviderInput & { scale?: number })[];
    expect(runs.map((run) => [run.scale, run.image?.width, run.image?.height])).toEqual([[2, 1275, 1650]]);
    expect(await tokensOf(client)).toBe(19);
  });

  it('a print size without dpi is 300 DPI; in webp (the default) the DPI is in its EXIF', async () => {
    const { client } = await verifiedUser(backend, 20);
    const answer = await upscale(client, { printSize: '5x7' });
    expect(answer.status).toBe(200);
    expect(await printFacts((await resultOf(client, answer)).bytes)).toMatchObject({
      format: 'webp',
      size: [2100, 1500],
      exif: { x: 300, y: 300 },
    });
    // Downloaded as JPEG or PNG (the result's Format choice): the DPI goes along, in JFIF and EXIF, and pHYs.
    const asJpeg = await resultOf(client, { body: { ...answer.body, output: `${answer.body.output}?format=jpeg` } });
    expect(await printFacts(asJpeg.bytes)).toEqual(jpegPrint([2100, 1500], 300));
    const asPng = await resultOf(client, { body: { ...answer.body, output: `${answer.body.output}?format=png` } });
    expect([asPng.meta.format, asPng.meta.density]).toEqual(['png', 300]);
  });

  it('a width: that width, the height from the photo, as PNG', async () => {
    const { client } = await verifiedUser(backend, 20);
    const answer = await upscale(client, { targetWidth: 3000, outputFormat: 'png' });
    expect(answer.status).toBe(200);
    const { meta } = await resultOf(client, answer);
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 3000, 2250]);
  });

  it.each([
    ['no target', {}, 'Choose how to upscale: scale (2, 4 or 6), targetWidth, targetHeight or printSize.'],
    [
      'a scale and a print size',
      { scale: 2, printSize: 'a4' },
      'Choose one of scale, targetWidth, targetHeight and printSize, not scale and printSize together.',
    ],
    [
      'a width and a height',
      { targetWidth: 3000, targetHeight: 2000 },
      'Choose one of scale, targetWidth, targetHeight and printSize, not targetWidth and targetHeight together.',
    ],
    ['dpi without a print size', { targetWidth: 3000, dpi: 300 }, 'The dpi goes with a printSize'],
    ['dpi under 72', { printSize: 'a4', dpi: 50 }, 'dpi: must be from 72 to 1200'],
    ['an unknown print size', { printSize: 'a5' }, 'printSize: must be one of a4, a3, letter, 4x6, 5x7, 8x10, 13x18cm'],
    ['a width of 0', { targetWidth: 0 }, 'targetWidth: must be from 1 to 16383'],
    [
      'more than 16.8 megapixels',
      { printSize: 'a3' },
      'This image is 2048 x 1536 px: A3 at 300 DPI (4961 x 3508 px) is 17.4 megapixels, more than the 16.8 megapixels the upscaler makes. The most it makes of A3 is 294 DPI.',
    ],
    [
      'more than 6x',
      { targetWidth: 14000 },
      'This image is 2048 x 1536 px: a width of 14000 px needs 6.8x, more than the 6x the upscaler makes.',
    ],
  ])('%s: refused with a sentence, nothing charged, no job', async (_name, body, error) => {
    const { client } = await verifiedUser(backend, 20);
    const answer = await upscale(client, body);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(error);
    expect(await tokensOf(client)).toBe(20);
    expect((await client.get<CreationList>('/api/creations')).body.creations).toEqual([]);
  });

  it('the OpenAPI document lists the target fields', async () => {
    // biome-ignore lint/suspicious/noExplicitAny: the parsed document, walked as JSON
    const document: any = await (await backend.app.request('/api/openapi.json')).json();
    const ref: string = document.paths['/api/upscale-image'].post.requestBody.content['application/json'].schema.$ref;
    const body = document.components.schemas[ref.split('/').pop() ?? ''];
    expect(body.properties.targetWidth).toMatchObject({ type: 'integer', minimum: 1, maximum: 16383 });
    expect(body.properties.targetHeight).toMatchObject({ type: 'integer' });
    expect(body.properties.printSize.enum).toEqual(['a4', 'a3', 'letter', '4x6', '5x7', '8x10', '13x18cm']);
    expect(body.properties.dpi).toMatchObject({ type: 'integer', minimum: 72, maximum: 1200 });
    expect(body.required ?? []).not.toContain('scale');
  });
});
