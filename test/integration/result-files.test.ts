// The result's file through the API (issue 41, decision 063): each image tool in each format, the
// upload's colour profile and metadata carried to the result, the cut-out's finishing, the options
// kept with the job for "Run again", the download in another format, and the refusals that charge
// nothing. PGlite only: the SQL is the tool call's, which the money tests run on both databases.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CreationList } from '../../src/contract/creations';
import {
  OUTPUT_FORMAT_TYPES,
  OUTPUT_FORMATS,
  OUTPUT_MESSAGES,
  type OutputFormat,
} from '../../src/contract/output-files';
import { TOOL_IDS, type ToolId, toolById } from '../../src/contract/tools';
import { exifHasLocation, pngWithMetadata } from '../../src/server/images/finishing/embedded-metadata';
import { colourTagsOf } from '../support/colour-tags';
import type { TestClient } from '../support/http-client';
import { adobeRgbProfile } from '../support/icc-profiles';
import type { TestBackend } from '../support/test-backend';
import { dataUrl, paidToolsBackend, pngBytes, tokensOf, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  backend = await paidToolsBackend({ TOOL_CALLS_PER_MINUTE: '1000' });
});
afterAll(() => backend.stop());

type Answer = { success: boolean; output?: string | string[]; error?: string; jobId?: string };

const firstOutput = (answer: Answer) => (Array.isArray(answer.output) ? answer.output[0] : answer.output) ?? '';

/** A body for `tool` with `extra` fields; `image` is the upload (a PNG). */
function bodyFor(tool: ToolId, image: Buffer, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const upload = dataUrl(image);
  const bodies: Record<Exclude<ToolId, 'image-analyzer'>, Record<string, unknown>> = {
    'text-to-pic': { prompt: 'a red fox', quality: 'low' },
    metamorphose: { prompt: 'as an astronaut', main_face_image: upload, width: 1024, height: 1024 },
    'image-upscaler': { image: upload, scale: 2 },
    colorizer: { image: upload },
    'background-remover': { image: upload },
    'creative-upscaler': { image: upload },
    'fix-a-face': { image: upload },
    'text-lab': { prompt: 'HELLO' },
    'background-swap': { prompt: 'on a beach', image: upload },
  };
  return { ...bodies[tool as Exclude<ToolId, 'image-analyzer'>], ...extra };
}

async function call(client: TestClient, tool: ToolId, body: Record<string, unknown>) {
  return client.post<Answer>(`/api${toolById(tool).apiPath}`, body);
}

async function fileOf(client: TestClient, url: string) {
  const response = await client.fetchRaw(url);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    bytes: Buffer.from(await response.arrayBuffer()),
  };
}

const sharpFormat = (format: OutputFormat) => (format === 'avif' ? 'heif' : format);

describe('each image tool in each format', () => {
  const tools = TOOL_IDS.filter((id) => id !== 'image-analyzer');

  it.each(tools)('%s: the file is in the format asked for and decodes; a cut-out keeps its alpha', async (tool) => {
    const { client } = await verifiedUser(backend, 400);
    // Transparent round its middle, as a cut-out is (the demo stands in for the model and keeps it).
    const opaque = await pngBytes(320, 320, '#3a7bd5');
    const clearRound = await sharp(opaque)
      .ensureAlpha()
      .composite([
        {
          input: Buffer.from('<svg width="320" height="320"><rect width="320" height="320"/></svg>'),
          blend: 'dest-in',
          left: 0,
          top: 0,
        },
      ])
      .extend({ top: 40, bottom: 40, left: 40, right: 40, background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer();
    for (const format of OUTPUT_FORMATS) {
      // A cut-out as JPEG needs its background colour.
      const extra = {
        outputFormat: format,
        ...(tool === 'background-remover' && format === 'jpeg' ? { background: '#ffffff' } : {}),
      };
      const upload = tool === 'background-remover' ? clearRound : opaque;
      const answer = await call(client, tool, bodyFor(tool, upload, extra));
      expect(answer.status, `${tool} ${format}: ${answer.body.error}`).toBe(200);
      const file = await fileOf(client, firstOutput(answer.body));
      expect(file.type, `${tool} ${format}`).toBe(OUTPUT_FORMAT_TYPES[format]);
      const meta = await sharp(file.bytes).metadata();
      expect(meta.format, `${tool} ${format}`).toBe(sharpFormat(format));
      expect((await sharp(file.bytes).raw().toBuffer()).length).toBeGreaterThan(0);
      if (tool === 'background-remover') expect(meta.hasAlpha, `${tool} ${format}`).toBe(format !== 'jpeg');
    }
  });
});

describe('the upload’s colours and metadata', () => {
  it('an Adobe RGB photo’s upscale keeps its profile, camera and copyright, upright, without its GPS position', async () => {
    const { client } = await verifiedUser(backend, 100);
    const icc = adobeRgbProfile();
    const numbers = await sharp({
      create: { width: 60, height: 40, channels: 3, background: { r: 20, g: 200, b: 60 } },
    })
      .png()
      .toBuffer();
    // The camera's EXIF (turned, with a position) and the profile, attached to the numbers unconverted.
    const exif = (
      await sharp(numbers)
        .withExif({
          IFD0: { Make: 'Nikon', Copyright: 'Ana Lima 2026' },
          IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '22/1 54/1 0/1' },
        })
        .withMetadata({ orientation: 6 })
        .jpeg()
        .toBuffer()
        .then((jpeg) => sharp(jpeg).metadata())
    ).exif as Buffer;
    const photo = pngWithMetadata(numbers, { icc, exif: exif.subarray(6) });
    expect((await sharp(photo).metadata()).orientation).toBe(6);
    const answer = await call(client, 'image-upscaler', {
      image: dataUrl(photo),
      scale: 2,
      outputFormat: 'png',
    });
    expect(answer.status, answer.body.error).toBe(200);
    const file = await fileOf(client, firstOutput(answer.body));
    const meta = await sharp(file.bytes).metadata();
    expect(meta.icc?.equals(icc)).toBe(true);
    expect([meta.width, meta.height]).toEqual([80, 120]); // turned upright once, then 2x
    expect([undefined, 1]).toContain(meta.orientation);
    expect(exifHasLocation(meta.exif as Buffer)).toBe(false);
    expect(meta.exif?.includes('Ana Lima 2026')).toBe(true);
    // The numbers are the upload's (the demo's label aside, in a corner).
    const [r, g, b] = await sharp(file.bytes, { ignoreIcc: true })
      .extract({ left: 4, top: 4, width: 1, height: 1 })
      .raw()
      .toBuffer();
    expect(Math.abs((r ?? 0) - 20) + Math.abs((g ?? 0) - 200) + Math.abs((b ?? 0) - 60)).toBeLessThan(20);

    const kept = await call(client, 'image-upscaler', { image: dataUrl(photo), scale: 2, keepLocation: true });
    expect(kept.status).toBe(200);
    const keptMeta = await sharp((await fileOf(client, firstOutput(kept.body))).bytes).metadata();
    expect(exifHasLocation(keptMeta.exif as Buffer)).toBe(true);
  });
});

describe('an untagged upload’s result is tagged sRGB (issue 54)', () => {
  it('an untagged JPEG with a density comes back sRGB in every format, and so does its download as AVIF', async () => {
    const { client } = await verifiedUser(backend, 100);
    // No profile; a density, and the EXIF libvips writes with it: "Uncalibrated", as many untagged JPEGs say.
    const photo = await sharp({ create: { width: 60, height: 40, channels: 3, background: { r: 20, g: 200, b: 60 } } })
      .withDensity(96)
      .jpeg({ quality: 95 })
      .toBuffer();
    expect(await colourTagsOf(photo)).toEqual({ profile: null, colr: [], exifColorSpace: 0xffff });
    const expectSrgb = async (bytes: Buffer, label: string) => {
      const tags = await colourTagsOf(bytes);
      expect(tags.profile, label).toMatch(/sRGB/);
      if ((await sharp(bytes).metadata()).format === 'heif') expect(tags.colr.length, label).toBeGreaterThan(0);
      expect(tags.exifColorSpace, label).not.toBe(0xffff);
    };
    for (const format of OUTPUT_FORMATS) {
      const answer = await call(client, 'image-upscaler', { image: dataUrl(photo), scale: 2, outputFormat: format });
      expect(answer.status, answer.body.error).toBe(200);
      await expectSrgb((await fileOf(client, firstOutput(answer.body))).bytes, format);
    }
    const answer = await call(client, 'colorizer', { image: dataUrl(photo) });
    const asAvif = await fileOf(client, `${firstOutput(answer.body)}?format=avif`);
    expect([asAvif.status, asAvif.type]).toEqual([200, 'image/avif']);
    await expectSrgb(asAvif.bytes, 'converted to avif');
  });
});

describe('cut-out finishing and what the job keeps', () => {
  it('a square white 2000 px with a shadow, kept with the job for Run again', async () => {
    const { client } = await verifiedUser(backend, 100);
    const finish = {
      background: '#ffffff',
      size: 2000,
      shadow: true,
      outputFormat: 'jpeg' as const,
      outputQuality: 85,
    };
    const answer = await call(
      client,
      'background-remover',
      bodyFor('background-remover', await pngBytes(300, 200), finish),
    );
    expect(answer.status, answer.body.error).toBe(200);
    const file = await fileOf(client, firstOutput(answer.body));
    const meta = await sharp(file.bytes).metadata();
    expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['jpeg', 2000, 2000, false]);
    const creations = await client.get<CreationList>('/api/creations?tool=background-remover');
    expect(creations.body.creations[0]?.settings).toMatchObject({
      background: '#ffffff',
      size: 2000,
      shadow: true,
      outputFormat: 'jpeg',
      outputQuality: 85,
    });
  });

  it('the download in another format keeps the file; a transparent cut-out is not offered as JPEG', async () => {
    const { client } = await verifiedUser(backend, 100);
    const answer = await call(
      client,
      'background-remover',
      bodyFor('background-remover', await pngBytes(64, 64), { crop: 5 }),
    );
    expect(answer.status).toBe(200);
    const url = firstOutput(answer.body);
    const asAvif = await fileOf(client, `${url}?format=avif`);
    expect([asAvif.status, asAvif.type]).toEqual([200, 'image/avif']);
    expect((await sharp(asAvif.bytes).metadata()).hasAlpha).toBe(true);
    const asJpeg = await fileOf(client, `${url}?format=jpeg`);
    expect(asJpeg.status).toBe(400);
    expect(JSON.parse(asJpeg.bytes.toString())).toEqual({ error: OUTPUT_MESSAGES.jpegNeedsBackground });
    expect((await fileOf(client, `${url}?format=gif`)).status).toBe(400);
    const same = await fileOf(client, `${url}?format=png`);
    expect([same.status, same.type]).toEqual([200, 'image/png']);
  });
});

describe('refusals charge nothing', () => {
  it.each([
    ['background-remover', { outputFormat: 'jpeg' }, OUTPUT_MESSAGES.jpegNeedsBackground],
    ['background-remover', { outputFormat: 'jpeg', background: 'transparent' }, OUTPUT_MESSAGES.jpegNeedsBackground],
    ['background-remover', { outputQuality: 80 }, OUTPUT_MESSAGES.qualityNotForPng],
    ['colorizer', { outputFormat: 'png', outputQuality: 80 }, OUTPUT_MESSAGES.qualityNotForPng],
    ['colorizer', { outputFormat: 'gif' }, 'outputFormat: must be one of png, jpeg, webp, avif'],
    ['colorizer', { outputQuality: 0 }, 'outputQuality: must be from 1 to 100'],
    ['background-remover', { crop: 80 }, 'crop: must be a margin from 0 to 50 percent'],
    ['background-remover', { size: 10 }, 'size: must be from 64 to 4096 pixels'],
    ['background-remover', { background: 'red' }, 'background: must be "transparent" or a colour as #rrggbb'],
  ] as const)('%s %j', async (tool, extra, error) => {
    const { client } = await verifiedUser(backend, 20);
    const answer = await call(client, tool, bodyFor(tool, await pngBytes(64, 64), extra));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toContain(error);
    expect(await tokensOf(client)).toBe(20);
    expect((await client.get<CreationList>('/api/creations')).body.creations).toEqual([]);
  });

  it('an upload with transparency, asked for as JPEG from the upscaler (which keeps it)', async () => {
    const { client } = await verifiedUser(backend, 20);
    const clear = await sharp({
      create: { width: 64, height: 64, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toBuffer();
    const answer = await call(client, 'image-upscaler', { image: dataUrl(clear), scale: 2, outputFormat: 'jpeg' });
    expect([answer.status, answer.body.error]).toEqual([400, OUTPUT_MESSAGES.jpegTransparentUpload]);
    expect(await tokensOf(client)).toBe(20);
  });
});

describe('the OpenAPI document', () => {
  it('has the file options in the tools’ request schemas', async () => {
    const doc = (await (await backend.app.request('/api/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: Record<string, { enum?: string[] }> }> };
    };
    const remover = Object.entries(doc.components.schemas).find(([name]) => name === 'BackgroundRemoverRequest')?.[1];
    expect(remover?.properties.outputFormat?.enum).toEqual([...OUTPUT_FORMATS]);
    expect(Object.keys(remover?.properties ?? {})).toEqual(
      expect.arrayContaining(['outputQuality', 'keepLocation', 'background', 'crop', 'size', 'shadow']),
    );
  });
});
