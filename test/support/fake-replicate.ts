// A fake Replicate HTTP API on 127.0.0.1 for tests: the endpoints the official client uses, bearer-token
// auth, real image outputs (sharp) served from its own /delivery/ path, and scenarios per model or per
// next call. Every request is recorded for assertions. A prediction created with a `webhook` records
// it; the fake cannot reach an in-process app, so tests fetch the finished delivery and post it.
import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { createDemoProvider } from '../../src/server/inference/demo/demo-provider';
import { replicateModels } from '../../src/server/inference/replicate/models';
import {
  createReplicateProvider,
  type ReplicateProviderOptions,
} from '../../src/server/inference/replicate/replicate-provider';
import { createInferenceRouter, type InferenceRouter } from '../../src/server/inference/routing';
import { SERVER_TOOLS } from '../../src/server/tools/registry';

export type MalformedOutput = 'number' | 'not-image' | 'foreign-host' | 'empty';

export type FakeScenario =
  | 'succeed'
  | 'fail'
  | 'nsfw'
  | 'unauthorized'
  | 'rate-limited-once'
  | 'rate-limited'
  | 'server-error'
  | { fail: string }
  /** Stays `processing` for this many ms, then succeeds (unless canceled). */
  | { slow: number }
  | { malformed: MalformedOutput };

export type RecordedRequest = { method: string; path: string; body: unknown; prefer?: string };

export const FAKE_NSFW_ERROR = 'NSFW content detected. Try running it again, or try a different prompt.';
export const FAKE_FAILURE_ERROR = 'CUDA out of memory. Tried to allocate 2.00 GiB';
export const FOREIGN_OUTPUT_URL = 'https://not-replicate.example/out.png';

type Status = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

type FakePrediction = {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  status: Status;
  output: unknown;
  error: string | null;
  createdAt: string;
  startedAt?: string;
  completedAt?: string;
  webhook?: { url: string; events: unknown };
  done: Promise<void>;
  finish: () => void;
  timer?: NodeJS.Timeout;
};

type StoredFile = { bytes: Buffer; contentType: string; name: string };

type ModelContext = {
  /** Size of an input image given as a data URI or as one of this fake's uploaded-file URLs. */
  imageSize(ref: unknown): Promise<{ width: number; height: number }>;
  store(bytes: Buffer, contentType: string, name: string): string;
};

type FakeModel = {
  required: string[];
  produce(input: Record<string, unknown>, ctx: ModelContext): Promise<unknown>;
};

/** Outputs stay tiny: text-to-image renders 64 px on the short side, image tools cap at 128 px. */
const SHORT_SIDE = 64;
const OUTPUT_CAP = 128;

function aspectSize(ratio: unknown): { width: number; height: number } {
  const long = Math.round((SHORT_SIDE * 16) / 9);
  if (ratio === '16:9') return { width: long, height: SHORT_SIDE };
  if (ratio === '9:16') return { width: SHORT_SIDE, height: long };
  return { width: SHORT_SIDE, height: SHORT_SIDE };
}

function capped(width: number, height: number): { width: number; height: number } {
  const ratio = Math.min(1, OUTPUT_CAP / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * ratio)), height: Math.max(1, Math.round(height * ratio)) };
}

function solid(size: { width: number; height: number }, index: number, alpha = false) {
  const shade = (40 + index * 50) % 256;
  return sharp({
    create: {
      width: size.width,
      height: size.height,
      channels: alpha ? 4 : 3,
      background: { r: shade, g: 120, b: 255 - shade, alpha: alpha ? 0.5 : 1 },
    },
  });
}

async function scaled(ctx: ModelContext, ref: unknown, scale: unknown) {
  const { width, height } = await ctx.imageSize(ref);
  const factor = typeof scale === 'number' && scale > 0 ? scale : 1;
  return capped(width * factor, height * factor);
}

const FAKE_MODELS: Record<string, FakeModel> = {
  'black-forest-labs/flux-schnell': {
    required: ['prompt'],
    async produce(input, ctx) {
      const count = typeof input.num_outputs === 'number' ? input.num_outputs : 1;
      const urls: string[] = [];
      for (let i = 0; i < count; i++) {
        const bytes = await solid(aspectSize(input.aspect_ratio), i).webp().toBuffer();
        urls.push(ctx.store(bytes, 'image/webp', `out-${i}.webp`));
      }
      return urls;
    },
  },
  'ideogram-ai/ideogram-v2-turbo': {
    required: ['prompt'],
    async produce(input, ctx) {
      const bytes = await solid(aspectSize(input.aspect_ratio), 0).webp().toBuffer();
      return ctx.store(bytes, 'image/webp', 'output.webp');
    },
  },
  'bytedance/flux-pulid': {
    required: ['main_face_image', 'prompt'],
    async produce(input, ctx) {
      await ctx.imageSize(input.main_face_image);
      const size = capped(Number(input.width ?? 896), Number(input.height ?? 1152));
      const count = typeof input.num_outputs === 'number' ? input.num_outputs : 1;
      const urls: string[] = [];
      for (let i = 0; i < count; i++) {
        urls.push(ctx.store(await solid(size, i).webp().toBuffer(), 'image/webp', `out-${i}.webp`));
      }
      return urls;
    },
  },
  'nightmareai/real-esrgan': {
    required: ['image'],
    async produce(input, ctx) {
      const size = await scaled(ctx, input.image, input.scale ?? 4);
      return ctx.store(await solid(size, 0).png().toBuffer(), 'image/png', 'output.png');
    },
  },
  'piddnad/ddcolor': {
    required: ['image'],
    async produce(input, ctx) {
      const size = await scaled(ctx, input.image, 1);
      return ctx.store(await solid(size, 1).png().toBuffer(), 'image/png', 'output.png');
    },
  },
  '851-labs/background-remover': {
    required: ['image'],
    async produce(input, ctx) {
      const size = await scaled(ctx, input.image, 1);
      return ctx.store(await solid(size, 2, true).png().toBuffer(), 'image/png', 'output.png');
    },
  },
  'philz1337x/clarity-upscaler': {
    required: ['image'],
    async produce(input, ctx) {
      const size = await scaled(ctx, input.image, input.scale_factor ?? 2);
      return [ctx.store(await solid(size, 3).png().toBuffer(), 'image/png', 'output.png')];
    },
  },
  'tencentarc/gfpgan': {
    required: ['img'],
    async produce(input, ctx) {
      const size = await scaled(ctx, input.img, input.scale ?? 2);
      return ctx.store(await solid(size, 4).png().toBuffer(), 'image/png', 'output.png');
    },
  },
  'logerzhu/ad-inpaint': {
    required: ['image_path'],
    async produce(input, ctx) {
      // Like the real model: the product cut-out first, then the generated images.
      const size = await scaled(ctx, input.image_path, 1);
      const urls = [ctx.store(await solid(size, 0, true).png().toBuffer(), 'image/png', 'top.png')];
      const count = typeof input.image_num === 'number' ? input.image_num : 1;
      for (let i = 0; i < count; i++) {
        urls.push(
          ctx.store(
            await solid(size, i + 1)
              .jpeg()
              .toBuffer(),
            'image/jpeg',
            `ad_inpaint_${i}.jpg`,
          ),
        );
      }
      return urls;
    },
  },
};

export type FakeReplicate = Awaited<ReturnType<typeof startFakeReplicate>>;

export async function startFakeReplicate(options: { preferWaitCapMs?: number } = {}) {
  // Replicate holds a `Prefer: wait` request up to 60 s; the fake caps that so slow scenarios stay fast.
  const preferWaitCapMs = options.preferWaitCapMs ?? 250;
  const token = `r8_fake_${randomUUID().replaceAll('-', '')}`;
  const requests: RecordedRequest[] = [];
  const predictions = new Map<string, FakePrediction>();
  const files = new Map<string, StoredFile>();
  const delivery = new Map<string, StoredFile>();
  const scenarios = new Map<string, FakeScenario>();
  const nextScenarios: FakeScenario[] = [];
  const versions = new Map<string, string>();
  const official = new Set<string>();
  for (const spec of replicateModels(SERVER_TOOLS).all) {
    if (spec.version) versions.set(spec.version, spec.model);
    else official.add(spec.model);
  }
  let url = '';

  const ctx: ModelContext = {
    async imageSize(ref) {
      let bytes: Buffer | undefined;
      if (typeof ref === 'string' && ref.startsWith('data:')) {
        const match = /^data:[^;,]*;base64,(.*)$/s.exec(ref);
        if (match?.[1]) bytes = Buffer.from(match[1], 'base64');
      } else if (typeof ref === 'string' && ref.startsWith(`${url}/v1/files/`)) {
        bytes = files.get(ref.slice(`${url}/v1/files/`.length))?.bytes;
      }
      if (!bytes) throw new Error(`cannot read input image ${String(ref).slice(0, 60)}`);
      const meta = await sharp(bytes).metadata();
      return { width: meta.width ?? 1, height: meta.height ?? 1 };
    },
    store(bytes, contentType, name) {
      const id = randomUUID();
      delivery.set(id, { bytes, contentType, name });
      return `${url}/delivery/${id}/${name}`;
    },
  };

  const view = (p: FakePrediction) => ({
    id: p.id,
    model: p.model,
    version: p.version,
    input: p.input,
    logs: '',
    output: p.output,
    error: p.error,
    status: p.status,
    source: 'api',
    data_removed: false,
    created_at: p.createdAt,
    started_at: p.startedAt,
    completed_at: p.completedAt,
    urls: { get: `${url}/v1/predictions/${p.id}`, cancel: `${url}/v1/predictions/${p.id}/cancel` },
    metrics: {},
  });

  const settle = (p: FakePrediction, status: Status, fields: { output?: unknown; error?: string } = {}) => {
    if (isTerminal(p.status)) return;
    p.status = status;
    p.output = fields.output ?? null;
    p.error = fields.error ?? null;
    p.completedAt = new Date().toISOString();
    p.finish();
  };

  async function execute(p: FakePrediction, model: FakeModel, scenario: FakeScenario) {
    p.status = 'processing';
    p.startedAt = new Date().toISOString();
    if (typeof scenario === 'object' && 'slow' in scenario) {
      await new Promise<void>((resolve) => {
        p.timer = setTimeout(resolve, scenario.slow);
        p.done.then(resolve);
      });
      // Canceled while waiting: settle() already made it terminal.
      if (isTerminal(p.status)) return;
    }
    if (scenario === 'fail') return settle(p, 'failed', { error: FAKE_FAILURE_ERROR });
    if (scenario === 'nsfw') return settle(p, 'failed', { error: FAKE_NSFW_ERROR });
    if (typeof scenario === 'object' && 'fail' in scenario) return settle(p, 'failed', { error: scenario.fail });
    if (typeof scenario === 'object' && 'malformed' in scenario) {
      const outputs: Record<MalformedOutput, () => unknown> = {
        number: () => 42,
        empty: () => [],
        'foreign-host': () => FOREIGN_OUTPUT_URL,
        'not-image': () => ctx.store(Buffer.from('<html>not an image</html>'), 'image/png', 'output.png'),
      };
      return settle(p, 'succeeded', { output: outputs[scenario.malformed]() });
    }
    try {
      settle(p, 'succeeded', { output: await model.produce(p.input, ctx) });
    } catch (error) {
      settle(p, 'failed', { error: error instanceof Error ? error.message : String(error) });
    }
  }

  function scenarioFor(model: string): FakeScenario {
    const next = nextScenarios.shift();
    if (next) return next;
    const scenario = scenarios.get(model) ?? 'succeed';
    if (scenario === 'rate-limited-once') scenarios.set(model, 'succeed');
    return scenario;
  }

  async function createPrediction(
    req: IncomingMessage,
    res: ServerResponse,
    model: string,
    version: string,
    body: { input?: unknown; webhook?: unknown; webhook_events_filter?: unknown },
  ) {
    const scenario = scenarioFor(model);
    if (scenario === 'unauthorized') return sendJson(res, 401, problem(401, 'Unauthenticated'));
    if (scenario === 'rate-limited' || scenario === 'rate-limited-once') {
      return sendJson(res, 429, problem(429, 'Request was throttled.'), { 'retry-after': '1' });
    }
    if (scenario === 'server-error') return sendJson(res, 500, problem(500, 'Internal server error'));
    const fake = FAKE_MODELS[model];
    if (!fake) return sendJson(res, 404, problem(404, `no fake for ${model}`));
    const input = isRecord(body.input) ? body.input : {};
    const missing = fake.required.filter((field) => input[field] === undefined);
    if (missing.length > 0) {
      return sendJson(res, 422, problem(422, missing.map((field) => `- input: ${field} is required`).join('\n')));
    }
    let finish = () => {};
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const prediction: FakePrediction = {
      id: randomUUID().replaceAll('-', '').slice(0, 26),
      model,
      version,
      input,
      status: 'starting',
      output: null,
      error: null,
      createdAt: new Date().toISOString(),
      ...(typeof body.webhook === 'string'
        ? { webhook: { url: body.webhook, events: body.webhook_events_filter } }
        : {}),
      done,
      finish,
    };
    predictions.set(prediction.id, prediction);
    void execute(prediction, fake, scenario);

    const wait = /^wait(?:=(\d+))?$/.exec(headerValue(req, 'prefer')?.trim() ?? '');
    if (wait) {
      const limit = Math.min(Number(wait[1] ?? 60) * 1000, preferWaitCapMs);
      await Promise.race([done, new Promise((resolve) => setTimeout(resolve, limit))]);
    }
    sendJson(res, 201, view(prediction));
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const method = req.method ?? 'GET';
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const raw = await readBody(req);
    const contentType = req.headers['content-type'] ?? '';
    let body: unknown;
    let form: FormData | undefined;
    if (contentType.startsWith('multipart/form-data')) {
      form = await new Response(new Uint8Array(raw), { headers: { 'content-type': contentType } }).formData();
      const content = form.get('content');
      body = content instanceof File ? { name: content.name, type: content.type, size: content.size } : {};
    } else if (raw.length > 0) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        body = raw.toString('utf8');
      }
    }
    const prefer = headerValue(req, 'prefer');
    requests.push({ method, path, body, ...(prefer ? { prefer } : {}) });

    const deliveryMatch = /^\/delivery\/([^/]+)\/[^/]+$/.exec(path);
    if (method === 'GET' && deliveryMatch?.[1]) {
      const file = delivery.get(deliveryMatch[1]);
      if (!file) return sendJson(res, 404, problem(404, 'Not found'));
      res.writeHead(200, { 'content-type': file.contentType, 'content-length': file.bytes.length });
      res.end(file.bytes);
      return;
    }
    if (!path.startsWith('/v1/')) return sendJson(res, 404, problem(404, 'Not found'));
    if (req.headers.authorization !== `Bearer ${token}`) {
      return sendJson(res, 401, problem(401, 'You did not pass a valid authentication token'));
    }

    const modelCreate = method === 'POST' ? /^\/v1\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(path) : null;
    if (modelCreate) {
      const model = `${modelCreate[1]}/${modelCreate[2]}`;
      if (!official.has(model)) {
        return sendJson(res, 404, problem(404, `${model} is not an official model: use a version`));
      }
      return createPrediction(req, res, model, 'official', isRecord(body) ? body : {});
    }
    if (method === 'POST' && path === '/v1/predictions') {
      const version = isRecord(body) && typeof body.version === 'string' ? body.version : '';
      const model = versions.get(version);
      if (!model) return sendJson(res, 422, problem(422, `Invalid version or not permitted: ${version}`));
      return createPrediction(req, res, model, version, isRecord(body) ? body : {});
    }
    const predictionPath = /^\/v1\/predictions\/([^/]+?)(\/cancel)?$/.exec(path);
    if (predictionPath) {
      const prediction = predictions.get(predictionPath[1] ?? '');
      if (!prediction) return sendJson(res, 404, problem(404, 'Not found'));
      if (method === 'GET' && !predictionPath[2]) return sendJson(res, 200, view(prediction));
      if (method === 'POST' && predictionPath[2]) {
        clearTimeout(prediction.timer);
        settle(prediction, 'canceled');
        return sendJson(res, 200, view(prediction));
      }
    }
    if (method === 'POST' && path === '/v1/files') {
      const content = form?.get('content');
      if (!(content instanceof File)) return sendJson(res, 400, problem(400, 'content is required'));
      const id = randomUUID().replaceAll('-', '');
      files.set(id, { bytes: Buffer.from(await content.arrayBuffer()), contentType: content.type, name: content.name });
      return sendJson(res, 201, {
        id,
        name: content.name,
        content_type: content.type,
        size: content.size,
        checksums: {},
        metadata: {},
        created_at: new Date().toISOString(),
        expires_at: null,
        urls: { get: `${url}/v1/files/${id}` },
      });
    }
    const filePath = /^\/v1\/files\/([^/]+)$/.exec(path);
    const file = filePath ? files.get(filePath[1] ?? '') : undefined;
    if (filePath && file && method === 'DELETE') {
      files.delete(filePath[1] ?? '');
      res.writeHead(204).end();
      return;
    }
    if (filePath && file && method === 'GET') {
      return sendJson(res, 200, { id: filePath[1], content_type: file.contentType, size: file.bytes.length });
    }
    sendJson(res, 404, problem(404, 'Not found'));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, problem(500, String(error)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    /** Origin of the fake, e.g. http://127.0.0.1:40123 (outputs live under it). */
    url,
    /** What the client's baseUrl should be. */
    apiUrl: `${url}/v1`,
    token,
    requests,
    /** Predictions as the fake sees them, e.g. to check one was canceled. */
    prediction: (id: string) => {
      const p = predictions.get(id);
      return p ? view(p) : undefined;
    },
    /**
     * What Replicate would post to a prediction's webhook once it has finished (waits for that): the
     * URL and events filter it was created with and the final prediction JSON.
     */
    async webhookDelivery(id: string) {
      const p = predictions.get(id);
      if (!p?.webhook) throw new Error(`prediction ${id} was not created with a webhook`);
      await p.done;
      return { ...p.webhook, body: JSON.stringify(view(p)) };
    },
    /** Uploaded files still stored (deleted ones are gone). */
    uploadedFileIds: () => [...files.keys()],
    /** Scenario for every following call to `model` (owner/name). */
    setScenario(model: string, scenario: FakeScenario) {
      scenarios.set(model, scenario);
    },
    /** Scenario for the next create call, whatever the model; takes precedence once. */
    setNextScenario(scenario: FakeScenario) {
      nextScenarios.push(scenario);
    },
    reset() {
      requests.length = 0;
      scenarios.clear();
      nextScenarios.length = 0;
    },
    async stop() {
      for (const p of predictions.values()) clearTimeout(p.timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Routing for integration tests: every tool Replicate serves goes to `fake`, the rest to the demo provider. */
export function routerOnFake(fake: FakeReplicate, options: Partial<ReplicateProviderOptions> = {}): InferenceRouter {
  const replicate = createReplicateProvider({
    tools: SERVER_TOOLS,
    apiToken: fake.token,
    baseUrl: fake.apiUrl,
    allowedOutputHosts: [fake.url],
    pollIntervalMs: 20,
    ...options,
  });
  return createInferenceRouter({ default: 'replicate', perTool: {} }, { replicate }, createDemoProvider(SERVER_TOOLS));
}

/** Headers as Replicate signs a webhook delivery (Standard Webhooks, `whsec_` secret). */
export function signWebhook(
  secret: string,
  body: string,
  { id = `msg_${randomUUID()}`, timestamp = Math.floor(Date.now() / 1000) }: { id?: string; timestamp?: number } = {},
): Record<string, string> {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}

function isTerminal(status: Status): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}

function problem(status: number, detail: string) {
  return { status, detail, title: detail.split('\n')[0] };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
