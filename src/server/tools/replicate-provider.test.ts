// The Replicate provider (inference/replicate/) serving the tools' own models against a fake
// Replicate: here in tools/ because it runs the tool modules' specs, which inference/ never imports.
import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  FAKE_NSFW_ERROR,
  type FakeReplicate,
  FOREIGN_OUTPUT_URL,
  type RecordedRequest,
  startFakeReplicate,
} from '../../../test/support/fake-replicate';
import { TOOL_IDS } from '../../contract/tools';
import type { ImageInput, ImageMime } from '../images/image-types';
import { ProviderError, type ToolResult } from '../inference/provider';
import {
  createReplicateProvider,
  outputUrlMatcher,
  type ReplicateProviderOptions,
  SAFETY_USER_MESSAGE,
} from '../inference/replicate/replicate-provider';
import { SERVER_TOOLS, type ToolInput } from './registry';

let fake: FakeReplicate;
const logger = { warn: vi.fn(), error: vi.fn() };

beforeAll(async () => {
  fake = await startFakeReplicate();
});
afterAll(async () => {
  await fake.stop();
});
beforeEach(() => {
  fake.reset();
  logger.warn.mockReset();
  logger.error.mockReset();
});

function provider(overrides: Partial<ReplicateProviderOptions> = {}) {
  return createReplicateProvider({
    tools: SERVER_TOOLS,
    apiToken: fake.token,
    baseUrl: fake.apiUrl,
    allowedOutputHosts: [fake.url],
    pollIntervalMs: 20,
    logger,
    ...overrides,
  });
}

const run = (
  input: ToolInput,
  overrides: Partial<ReplicateProviderOptions> = {},
  signal = new AbortController().signal,
) => provider(overrides).run(input, signal);

async function image(width: number, height: number, mime: ImageMime = 'image/png'): Promise<ImageInput> {
  const base = sharp({ create: { width, height, channels: 3, background: { r: 200, g: 30, b: 90 } } });
  const formatted = mime === 'image/png' ? base.png() : mime === 'image/jpeg' ? base.jpeg() : base.webp();
  return { bytes: await formatted.toBuffer(), mime, width, height };
}

/** Noise does not compress, so this PNG is well over the 256 kB inline limit. */
async function largeImage(): Promise<ImageInput> {
  const side = 320;
  const bytes = await sharp(randomBytes(side * side * 3), { raw: { width: side, height: side, channels: 3 } })
    .png()
    .toBuffer();
  return { bytes, mime: 'image/png', width: side, height: side };
}

const textToPic: ToolInput = {
  tool: 'text-to-pic',
  prompt: 'x',
  aspectRatio: '1:1',
  numOutputs: 1,
  quality: 'low',
  outputQuality: 33,
};

const dataUri = (input: ImageInput) => `data:${input.mime};base64,${input.bytes.toString('base64')}`;

function creates(): RecordedRequest[] {
  return fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/predictions'));
}

function onlyCreate(): RecordedRequest {
  const all = creates();
  expect(all).toHaveLength(1);
  return all[0] as RecordedRequest;
}

async function describeImages(result: ToolResult) {
  if (result.kind !== 'images') throw new Error('expected images');
  return Promise.all(
    result.images.map(async ({ bytes, contentType }) => {
      const meta = await sharp(bytes).metadata();
      return { contentType, format: meta.format, width: meta.width, height: meta.height, hasAlpha: meta.hasAlpha };
    }),
  );
}

async function rejection(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/** Waits for `check` (the fake's requests come over HTTP); the cap only catches a hang. */
async function waitFor(check: () => boolean, ms = 20_000) {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const requestUrl = (input: Parameters<typeof fetch>[0]) => (input instanceof Request ? input.url : String(input));

const cancelRequests = () => fake.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/cancel'));

describe('Replicate provider: every tool', () => {
  it('serves every tool but the image analyzer', () => {
    const p = provider();
    expect(p.name).toBe('replicate');
    for (const tool of TOOL_IDS) expect(p.supports(tool)).toBe(tool !== 'image-analyzer');
  });

  it('text-to-pic: flux-schnell (official path), WEBPs at the aspect ratio, one per output', async () => {
    const result = await run({
      tool: 'text-to-pic',
      prompt: 'a red fox in snow',
      aspectRatio: '16:9',
      numOutputs: 3,
      quality: 'med',
      outputQuality: 66,
    });
    const create = onlyCreate();
    expect(create.path).toBe('/v1/models/black-forest-labs/flux-schnell/predictions');
    expect(create.prefer).toBe('wait=60');
    expect(create.body).toEqual({
      input: {
        prompt: 'a red fox in snow',
        aspect_ratio: '16:9',
        num_outputs: 3,
        go_fast: true,
        output_format: 'webp',
        output_quality: 66,
      },
    });
    const images = await describeImages(result);
    expect(images).toHaveLength(3);
    for (const img of images)
      expect(img).toMatchObject({ contentType: 'image/webp', format: 'webp', width: 114, height: 64 });
  });

  it('metamorphose: flux-pulid pinned, face as a data URI, one WEBP', async () => {
    const face = await image(20, 20, 'image/jpeg');
    const result = await run({
      tool: 'metamorphose',
      prompt: 'as an astronaut',
      image: face,
      width: 768,
      height: 1344,
      numOutputs: 1,
      outputQuality: 33,
    });
    const create = onlyCreate();
    expect(create.path).toBe('/v1/predictions');
    expect(create.body).toEqual({
      version: '8baa7ef2255075b46f4d91cd238c21d31181b3e6a864463f967960bb0112525b',
      input: {
        main_face_image: dataUri(face),
        prompt: 'as an astronaut',
        width: 768,
        height: 1344,
        num_outputs: 1,
        output_quality: 33,
        output_format: 'webp',
      },
    });
    expect(await describeImages(result)).toEqual([
      expect.objectContaining({ contentType: 'image/webp', format: 'webp', width: 73, height: 128 }),
    ]);
  });

  it('text-lab: ideogram v2 turbo (official path), a single URL becomes a list of one', async () => {
    const result = await run({ tool: 'text-lab', prompt: '"OPEN" neon sign', aspectRatio: '9:16', textAssist: 'Off' });
    const create = onlyCreate();
    expect(create.path).toBe('/v1/models/ideogram-ai/ideogram-v2-turbo/predictions');
    expect(create.body).toEqual({
      input: { prompt: '"OPEN" neon sign', aspect_ratio: '9:16', magic_prompt_option: 'Off' },
    });
    expect(await describeImages(result)).toEqual([
      expect.objectContaining({ contentType: 'image/webp', width: 64, height: 114 }),
    ]);
  });

  it('image-upscaler: real-esrgan pinned, scale passed, face_enhance off', async () => {
    const input = await image(20, 10);
    const result = await run({ tool: 'image-upscaler', image: input, scale: 4 });
    const create = onlyCreate();
    expect(create.path).toBe('/v1/predictions');
    expect(create.body).toEqual({
      version: 'f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
      input: { image: dataUri(input), scale: 4, face_enhance: false },
    });
    expect(await describeImages(result)).toEqual([
      expect.objectContaining({ contentType: 'image/png', format: 'png', width: 80, height: 40 }),
    ]);
  });

  it('colorizer: ddcolor pinned, large model', async () => {
    const input = await image(24, 16, 'image/jpeg');
    const result = await run({ tool: 'colorizer', image: input });
    expect(onlyCreate().body).toEqual({
      version: 'ca494ba129e44e45f661d6ece83c4c98a9a7c774309beca01429b58fce8aa695',
      input: { image: dataUri(input), model_size: 'large' },
    });
    expect(await describeImages(result)).toEqual([
      expect.objectContaining({ contentType: 'image/png', width: 24, height: 16 }),
    ]);
  });

  it('background-remover: 851-labs pinned, PNG with alpha', async () => {
    const input = await image(30, 20, 'image/webp');
    const result = await run({ tool: 'background-remover', image: input });
    expect(onlyCreate().body).toEqual({
      version: 'a029dff38972b5fda4ec5d75d7d1cd25aeff621d2cf4946a41055d7db66b80bc',
      input: { image: dataUri(input) },
    });
    expect(await describeImages(result)).toEqual([
      expect.objectContaining({ contentType: 'image/png', width: 30, height: 20, hasAlpha: true }),
    ]);
  });

  it('creative-upscaler: clarity-upscaler pinned, scale_factor 2, first of the output array', async () => {
    const input = await image(16, 16);
    const result = await run({ tool: 'creative-upscaler', image: input, scale: 2 });
    expect(onlyCreate().body).toEqual({
      version: 'dfad41707589d68ecdccd1dfa600d55a208f9310748e44bfe35b4a6291453d5e',
      input: { image: dataUri(input), scale_factor: 2 },
    });
    expect(await describeImages(result)).toEqual([
      expect.objectContaining({ contentType: 'image/png', width: 32, height: 32 }),
    ]);
  });

  it('fix-a-face: gfpgan pinned, img / v1.4 / scale 2', async () => {
    const input = await image(12, 18);
    const result = await run({ tool: 'fix-a-face', image: input, scale: 2 });
    expect(onlyCreate().body).toEqual({
      version: '0fbacf7afc6c144e5be9767cff80f25aff23e52b0708f17e20f9879b2f21516c',
      input: { img: dataUri(input), version: 'v1.4', scale: 2 },
    });
    expect(await describeImages(result)).toEqual([
      expect.objectContaining({ contentType: 'image/png', width: 24, height: 36 }),
    ]);
  });

  it('background-swap: ad-inpaint pinned, image_num, the leading cut-out is dropped', async () => {
    const input = await image(40, 30);
    const result = await run({ tool: 'background-swap', prompt: 'on a beach at sunset', image: input, numOutputs: 2 });
    expect(onlyCreate().body).toEqual({
      version: 'b1c17d148455c1fda435ababe9ab1e03bc0d917cc3cf4251916f22c45c83c7df',
      input: { image_path: dataUri(input), prompt: 'on a beach at sunset', image_num: 2 },
    });
    const images = await describeImages(result);
    expect(images).toHaveLength(2);
    for (const img of images) expect(img).toMatchObject({ contentType: 'image/jpeg', format: 'jpeg', width: 40 });
  });

  it('refuses the image analyzer', async () => {
    const err = await rejection(run({ tool: 'image-analyzer', image: await image(4, 4) }));
    expect(err.message).toMatch(/image-analyzer/);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('Replicate provider: inputs', () => {
  it('uploads images over 256 kB through the Files API, passes its URL and deletes it afterwards', async () => {
    const input = await largeImage();
    expect(input.bytes.length).toBeGreaterThan(256 * 1024);
    const result = await run({ tool: 'image-upscaler', image: input, scale: 2 });

    const upload = fake.requests.find((r) => r.method === 'POST' && r.path === '/v1/files');
    expect(upload?.body).toEqual({ name: 'input.png', type: 'image/png', size: input.bytes.length });
    const sent = onlyCreate().body as { input: { image: string } };
    expect(sent.input.image.startsWith(`${fake.url}/v1/files/`)).toBe(true);
    const fileId = sent.input.image.split('/').pop();
    expect(fake.requests).toContainEqual(expect.objectContaining({ method: 'DELETE', path: `/v1/files/${fileId}` }));
    expect(fake.uploadedFileIds()).toEqual([]);
    expect(await describeImages(result)).toEqual([expect.objectContaining({ width: 128, height: 128 })]);
  });

  it('sends small images inline, without the Files API', async () => {
    await run({ tool: 'colorizer', image: await image(8, 8) });
    expect(fake.requests.some((r) => r.path.startsWith('/v1/files'))).toBe(false);
  });
});

describe('Replicate provider: waiting and failures', () => {
  it('polls a prediction that outlives Prefer: wait until it succeeds', async () => {
    fake.setScenario('nightmareai/real-esrgan', { slow: 400 });
    const result = await run({ tool: 'image-upscaler', image: await image(10, 10), scale: 2 });
    expect(fake.requests.some((r) => r.method === 'GET' && r.path.startsWith('/v1/predictions/'))).toBe(true);
    expect(await describeImages(result)).toHaveLength(1);
  });

  it('a failed prediction is a non-retryable ProviderError with the model error', async () => {
    fake.setScenario('piddnad/ddcolor', 'fail');
    const err = await rejection(run({ tool: 'colorizer', image: await image(8, 8) }));
    expect(err.message).toMatch(/CUDA out of memory/);
    expect(err.options).toEqual({ retryable: false });
  });

  it.each([
    ['NSFW', 'nsfw' as const],
    ['moderation E005', { fail: 'The input or output was flagged as sensitive. Please try again. (E005)' }],
  ])('a %s failure shows the safety message', async (_name, scenario) => {
    fake.setScenario('black-forest-labs/flux-schnell', scenario);
    const err = await rejection(run(textToPic));
    expect(err.options.userMessage).toBe(SAFETY_USER_MESSAGE);
    expect(err.options.retryable).toBe(false);
    if (scenario === 'nsfw') expect(err.message).toContain(FAKE_NSFW_ERROR);
  });

  it('past timeoutMs: cancels the prediction and fails retryably', async () => {
    // The prediction would succeed after 10 s: failing at all means the 500 ms deadline ended the wait.
    fake.setScenario('tencentarc/gfpgan', { slow: 10_000 });
    const err = await rejection(run({ tool: 'fix-a-face', image: await image(8, 8), scale: 2 }, { timeoutMs: 500 }));
    expect(err.options.retryable).toBe(true);
    expect(err.message).toMatch(/within 500 ms/);
    await waitFor(() => cancelRequests().length === 1);
    const id = cancelRequests()[0]?.path.split('/')[3] ?? '';
    expect(fake.prediction(id)?.status).toBe('canceled');
  });

  it('an abort while polling cancels the prediction and rejects with the abort reason', async () => {
    fake.setScenario('851-labs/background-remover', { slow: 10_000 });
    const input = await image(8, 8);
    const controller = new AbortController();
    // Aborted at the first poll: the create call has answered, the prediction's id is known.
    const abortAtFirstPoll: typeof fetch = (resource, init) => {
      if (init?.method === 'GET' && requestUrl(resource).includes('/v1/predictions/')) controller.abort();
      return fetch(resource, init);
    };
    const error = await provider({ fetch: abortAtFirstPoll })
      .run({ tool: 'background-remover', image: input }, controller.signal)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
    // Awaited before rejecting: the prediction id was known.
    expect(cancelRequests()).toHaveLength(1);
    const id = cancelRequests()[0]?.path.split('/')[3] ?? '';
    expect(fake.prediction(id)?.status).toBe('canceled');
  });

  it('an abort while the create call is still held open rejects at once, and cancels once the id arrives', async () => {
    fake.setScenario('851-labs/background-remover', { slow: 10_000 });
    const input = await image(8, 8);
    const controller = new AbortController();
    // The create call is sent, then the job is aborted while the fake holds it open (Prefer: wait).
    let createAnswered = false;
    const abortWhileCreating: typeof fetch = async (resource, init) => {
      if (init?.method !== 'POST' || !requestUrl(resource).endsWith('/predictions')) return fetch(resource, init);
      const answer = fetch(resource, init);
      controller.abort();
      const response = await answer;
      createAnswered = true;
      return response;
    };
    const error = await provider({ fetch: abortWhileCreating })
      .run({ tool: 'background-remover', image: input }, controller.signal)
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    // Rejected without waiting for the create call's answer; the cancel follows that answer.
    expect(createAnswered).toBe(false);
    expect(cancelRequests()).toHaveLength(0);
    await waitFor(() => cancelRequests().length === 1);
    expect(createAnswered).toBe(true);
  });

  it('a polling failure is retryable and cancels the prediction still running', async () => {
    fake.setScenario('piddnad/ddcolor', { slow: 10_000 });
    const failingPolls: typeof fetch = (input, init) => {
      if (init?.method === 'GET' && requestUrl(input).includes('/v1/predictions/')) {
        return Promise.resolve(new Response('{"detail":"unavailable"}', { status: 503 }));
      }
      return fetch(input, init);
    };
    const err = await rejection(run({ tool: 'colorizer', image: await image(8, 8) }, { fetch: failingPolls }));
    expect(err.options.retryable).toBe(true);
    expect(err.message).toMatch(/HTTP 503/);
    expect(cancelRequests()).toHaveLength(1);
  });

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await provider()
      .run({ tool: 'colorizer', image: await image(8, 8) }, controller.signal)
      .catch((e: unknown) => e);
    expect((error as Error).name).toBe('AbortError');
    expect(fake.requests).toHaveLength(0);
  });

  it('a wrong token: non-retryable, logs which variable to check, never the token', async () => {
    const apiToken = 'r8_wrong_token_value';
    const err = await rejection(run({ tool: 'colorizer', image: await image(8, 8) }, { apiToken }));
    expect(err.options.retryable).toBe(false);
    expect(err.message).toMatch(/HTTP 401/);
    expect(logger.error).toHaveBeenCalledTimes(1);
    const logged = JSON.stringify(logger.error.mock.calls);
    expect(logged).toContain('REPLICATE_API_TOKEN');
    expect(logged).not.toContain(apiToken);
    expect(logged).not.toContain(fake.token);
  });

  it('an unauthorized answer on create is non-retryable', async () => {
    fake.setNextScenario('unauthorized');
    const err = await rejection(run({ tool: 'colorizer', image: await image(8, 8) }));
    expect(err.options.retryable).toBe(false);
    expect(JSON.stringify(logger.error.mock.calls)).toContain('REPLICATE_API_TOKEN');
  });

  it('rate limited once: the client retries the create and the job succeeds', async () => {
    fake.setScenario('piddnad/ddcolor', 'rate-limited-once');
    const result = await run({ tool: 'colorizer', image: await image(8, 8) });
    expect(creates()).toHaveLength(2);
    expect(await describeImages(result)).toHaveLength(1);
  });

  it.each(['rate-limited', 'server-error'] as const)('%s on create is a retryable ProviderError', async (scenario) => {
    fake.setScenario('piddnad/ddcolor', scenario);
    const err = await rejection(run({ tool: 'colorizer', image: await image(8, 8) }));
    expect(err.options.retryable).toBe(true);
  });

  it('a version Replicate does not know is a non-retryable rejection', async () => {
    // As if a pinned version had been deleted upstream: the fake answers 422 like Replicate.
    const p = createReplicateProvider({
      tools: SERVER_TOOLS,
      apiToken: fake.token,
      baseUrl: fake.apiUrl,
      allowedOutputHosts: [fake.url],
      logger,
      fetch: (input, init) => {
        const body =
          typeof init?.body === 'string' ? init.body.replace(/"version":"\w+"/, '"version":"deadbeef"') : null;
        return fetch(input, body ? { ...init, body } : init);
      },
    });
    const err = await rejection(p.run({ tool: 'colorizer', image: await image(8, 8) }, new AbortController().signal));
    expect(err.options.retryable).toBe(false);
    expect(err.message).toMatch(/HTTP 422/);
  });
});

describe('Replicate provider: outputs', () => {
  it.each(['number', 'empty', 'not-image'] as const)('malformed output (%s) is non-retryable', async (kind) => {
    fake.setNextScenario({ malformed: kind });
    const err = await rejection(run(textToPic));
    expect(err.options.retryable).toBe(false);
  });

  it('an output on another host is refused without being fetched', async () => {
    const fetched: string[] = [];
    const spy: typeof fetch = (input, init) => {
      fetched.push(input instanceof Request ? input.url : String(input));
      return fetch(input, init);
    };
    fake.setNextScenario({ malformed: 'foreign-host' });
    const err = await rejection(run(textToPic, { fetch: spy }));
    expect(err.options.retryable).toBe(false);
    expect(err.message).toMatch(/not-replicate\.example/);
    expect(fetched.some((u) => u.startsWith(new URL(FOREIGN_OUTPUT_URL).origin))).toBe(false);
  });

  it('with the default allow-list, delivery URLs on any other host are not downloaded', async () => {
    const err = await rejection(run(textToPic, { allowedOutputHosts: undefined }));
    expect(err.options.retryable).toBe(false);
    expect(fake.requests.some((r) => r.path.startsWith('/delivery/'))).toBe(false);
  });

  it('an output over maxOutputBytes is refused', async () => {
    const err = await rejection(run(textToPic, { maxOutputBytes: 64 }));
    expect(err.options.retryable).toBe(false);
    expect(err.message).toMatch(/64-byte limit/);
  });
});

describe('Replicate provider: webhook mode', () => {
  const webhook = { url: 'https://app.example.com/api/webhooks/replicate' };

  /** run() up to the pending answer, and the provider's complete/check. */
  async function startPending(input: ToolInput) {
    const p = provider({ webhook });
    const { complete, check } = p;
    if (!complete || !check) throw new Error('webhook mode needs complete() and check()');
    const result = await p.run(input, new AbortController().signal);
    if (result.kind !== 'pending') throw new Error(`expected pending, got ${result.kind}`);
    const finished = async () => JSON.parse((await fake.webhookDelivery(result.providerRef)).body) as unknown;
    return { ref: result.providerRef, complete, check, finished };
  }

  it('creates the prediction with the webhook, does not wait, and answers pending', async () => {
    fake.setScenario('nightmareai/real-esrgan', { slow: 300 });
    const { ref, complete, check, finished } = await startPending({
      tool: 'image-upscaler',
      image: await image(10, 10),
      scale: 2,
    });
    const create = onlyCreate();
    expect(create.prefer).toBeUndefined();
    expect(create.body).toMatchObject({ webhook: webhook.url, webhook_events_filter: ['completed'] });
    expect(await check(ref)).toBeNull();

    const delivered = await finished();
    const checked = await check(ref);
    expect(checked).toMatchObject({ id: ref, status: 'succeeded' });
    for (const payload of [delivered, checked]) {
      expect(await describeImages(await complete(payload, 1))).toHaveLength(1);
    }
  });

  it('keeps an uploaded input until the prediction is complete, then deletes it', async () => {
    const { complete, finished } = await startPending({ tool: 'colorizer', image: await largeImage() });
    expect(fake.uploadedFileIds()).toHaveLength(1);
    await complete(await finished(), 1);
    expect(fake.uploadedFileIds()).toEqual([]);
  });

  it('an NSFW prediction rejects as run() would; an unfinished one is refused', async () => {
    fake.setNextScenario('nsfw');
    const { complete, finished } = await startPending(textToPic);
    const payload = (await finished()) as Record<string, unknown>;
    const err = await rejection(complete(payload, 1));
    expect(err.options).toEqual({ userMessage: SAFETY_USER_MESSAGE, retryable: false });
    await rejection(complete({ ...payload, status: 'processing' }, 1));
  });
});

describe('outputUrlMatcher', () => {
  const allowed = outputUrlMatcher(['replicate.delivery', 'http://127.0.0.1:4010']);
  it.each([
    ['https://replicate.delivery/xezq/abc/out-0.webp', true],
    ['https://pbxt.replicate.delivery/abc/out.png', true],
    ['http://replicate.delivery/abc/out.png', false],
    ['https://replicate.delivery:8443/abc/out.png', false],
    ['https://replicate.delivery.evil.test/out.png', false],
    ['https://evilreplicate.delivery/out.png', false],
    ['https://user:pw@replicate.delivery/out.png', false],
    ['http://127.0.0.1:4010/delivery/x/out.png', true],
    ['http://127.0.0.1:4011/delivery/x/out.png', false],
    ['https://127.0.0.1:4010/delivery/x/out.png', false],
  ])('%s -> %s', (url, expected) => {
    expect(allowed(new URL(url))).toBe(expected);
  });
});
