// bench/batch: what a batch costs per image against single calls (issue 40, decision 062). Runs the
// real server (`npm start`: one process, embedded database, the local engine) and sends the same N
// small distinct images (the test/fixtures/images photos reduced to 64-128 px) through Image
// Upscaler 2x twice: as N single calls to POST /api/upscale-image one after another, each waited to
// its end, and as one batch (POST /api/batches, the images sent two at a time as the page sends
// them, then GET /api/batches/:id every second until none waits or runs; timed to the last image's
// finish). One untimed call first loads the models. Prints per round and phase the images per
// minute and the seconds an image, how long the batch's sending took, and the batch's overhead per
// image against the single calls'. Wanted (issue 40): the batch adds under 10% per image. Every
// image must succeed (exit 1 if not).
//   npm run bench:batch -- [--images 50] [--rounds 1]
// --rounds R: R rounds, the phases' order alternating (single calls first in the first round).
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { ServerProcess } from '../e2e/support/server';
import { type Batch, type BatchImageQueued, MAX_BATCH_IMAGES } from '../src/contract/batches';
import { toolById } from '../src/contract/tools';
import { arg } from './load/harness';
import { type ServerClient, serverWithUser, sleep } from './server-client';

const ROOT = path.resolve(import.meta.dirname, '..');
const TOOL = toolById('image-upscaler');
const IMAGES = arg('images', 50);
const ROUNDS = arg('rounds', 1);
const POLL_MS = 1000;
const SENDERS = 2; // the page sends a batch's images two at a time
const WANT_OVERHEAD = 0.1;

if (!Number.isInteger(IMAGES) || IMAGES < 1 || IMAGES > MAX_BATCH_IMAGES)
  throw new Error(`--images: a whole number from 1 to ${MAX_BATCH_IMAGES}`);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--rounds: a whole number from 1');

type Image = { name: string; dataUrl: string };

/**
 * `count` different small JPEGs: the fixtures, each cut a little differently (all of it, then 97%,
 * 94%... of it at moving places) and reduced to 64-128 px on its longer side, so that no two share
 * their bytes (nothing along the way can answer one from another, as the upload check's memory of
 * recent images would). Whole pictures, not small crops: tight crops of the cat, the coffee or the
 * astronaut score as explicit at the upload check's threshold and are refused.
 */
async function smallImages(count: number): Promise<Image[]> {
  const dir = path.join(ROOT, 'test/fixtures/images');
  const sources = readdirSync(dir)
    .filter((file) => /\.(jpe?g|png)$/.test(file))
    .sort()
    .map((file) => ({ file, bytes: readFileSync(path.join(dir, file)) }));
  const images: Image[] = [];
  const seen = new Set<string>();
  for (let i = 0; images.length < count; i++) {
    const source = sources[i % sources.length] as (typeof sources)[number];
    const { width = 1, height = 1 } = await sharp(source.bytes).metadata();
    const keep = 1 - 0.03 * Math.floor(i / sources.length);
    const [w, h] = [Math.round(width * keep), Math.round(height * keep)];
    const left = Math.round(((width - w) * ((i * 5) % 7)) / 6);
    const top = Math.round(((height - h) * ((i * 3) % 7)) / 6);
    const side = 64 + ((i * 37) % 65);
    const bytes = await sharp(source.bytes)
      .flatten({ background: '#ffffff' })
      .extract({ left, top, width: w, height: h })
      .resize({ width: side, height: side, fit: 'inside' })
      .jpeg({ quality: 90 })
      .toBuffer();
    const hash = createHash('sha256').update(bytes).digest('hex');
    if (seen.has(hash)) continue;
    seen.add(hash);
    images.push({
      name: `${path.parse(source.file).name}-${images.length}.jpg`,
      dataUrl: `data:image/jpeg;base64,${bytes.toString('base64')}`,
    });
  }
  return images;
}

type Request = ServerClient['json'];

type Outcome = { ok: boolean; detail: string };

/** One single call, followed at GET /api/jobs/:id should it answer 202 (it waits TOOL_WAIT_SECONDS first). */
async function singleCall(request: Request, image: Image): Promise<Outcome> {
  const first = await request<{ jobId?: string; error?: string }>('POST', `/api${TOOL.apiPath}`, {
    image: image.dataUrl,
    scale: 2,
  });
  if (first.status === 200) return { ok: true, detail: 'succeeded' };
  if (first.status !== 202 || !first.body.jobId)
    return { ok: false, detail: `${first.status} ${first.body.error ?? JSON.stringify(first.body)}` };
  for (;;) {
    await sleep(POLL_MS);
    const job = await request<{ status: string; error?: string | null }>('GET', `/api/jobs/${first.body.jobId}`);
    if (job.body.status === 'succeeded') return { ok: true, detail: 'succeeded' };
    if (job.body.status !== 'queued' && job.body.status !== 'running')
      return { ok: false, detail: `${job.body.status}: ${job.body.error ?? ''}` };
  }
}

type Phase = { seconds: number; failures: string[]; sendingSeconds?: number };

async function singleCalls(request: Request, images: Image[]): Promise<Phase> {
  const failures: string[] = [];
  const started = performance.now();
  for (const image of images) {
    const outcome = await singleCall(request, image);
    if (!outcome.ok) failures.push(`${image.name}: ${outcome.detail}`);
  }
  return { seconds: (performance.now() - started) / 1000, failures };
}

async function batch(request: Request, images: Image[]): Promise<Phase> {
  const failures: string[] = [];
  const started = performance.now();
  const startedAt = Date.now();
  const created = await request<Batch & { error?: string }>('POST', '/api/batches', {
    tool: TOOL.id,
    size: images.length,
  });
  if (created.status !== 201) throw new Error(`POST /api/batches answered ${created.status} ${created.body.error}`);
  const id = created.body.id;
  let next = 0;
  const sender = async () => {
    while (next < images.length) {
      const item = next++;
      const image = images[item] as Image;
      const sent = await request<BatchImageQueued & { error?: string }>('POST', `/api/batches/${id}/images`, {
        image: image.dataUrl,
        scale: 2,
        item,
        name: image.name,
      });
      if (sent.status !== 202) failures.push(`${image.name}: sending answered ${sent.status} ${sent.body.error}`);
    }
  };
  await Promise.all(Array.from({ length: SENDERS }, sender));
  const sendingSeconds = (performance.now() - started) / 1000;
  let view: Batch;
  for (;;) {
    const read = await request<Batch>('GET', `/api/batches/${id}`);
    if (read.status !== 200) throw new Error(`GET /api/batches/${id} answered ${read.status}`);
    view = read.body;
    if (view.counts.waiting + view.counts.running === 0) break;
    await sleep(POLL_MS);
  }
  // Until the last image finished, by the server's clock (the same machine's): how often the page
  // reads the batch then adds nothing, and the reads stay as rare as a page's.
  const lastFinish = Math.max(...view.items.map((item) => Date.parse(item.finishedAt ?? '') || Date.now()));
  const seconds = (lastFinish - startedAt) / 1000;
  for (const item of view.items)
    if (item.status !== 'succeeded')
      failures.push(`${item.batch?.name ?? item.id}: ${item.status} ${item.error ?? ''}`);
  const missing = images.length - view.items.length;
  if (missing > 0 && failures.length === 0) failures.push(`${missing} images not in the batch`);
  return { seconds, failures, sendingSeconds };
}

const perMinute = (phase: Phase) => (IMAGES * 60) / phase.seconds;
const perImage = (phase: Phase) => phase.seconds / IMAGES;

function line(label: string, phase: Phase) {
  const sending = phase.sendingSeconds === undefined ? '' : ` (sending ${phase.sendingSeconds.toFixed(1)} s)`;
  return `${label.padEnd(15)}${String(IMAGES).padStart(3)} images ${phase.seconds.toFixed(1).padStart(6)} s ${Math.round(perMinute(phase)).toString().padStart(5)} images/min   ${perImage(phase).toFixed(3)} s an image${sending}`;
}

const overhead = (single: number, batched: number) => {
  const share = (batched - single) / single;
  return `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;
};

/** The server on a fresh data dir, a verified user with the tokens both phases take, signed in. */
async function setUp(dataDir: string, holder: { server?: ServerProcess }): Promise<Request> {
  const { api } = await serverWithUser(dataDir, holder, {
    label: 'batch',
    tokensFor: ({ tools }) => {
      const routing = tools.find((tool) => tool.id === TOOL.id);
      if (routing?.provider !== 'local') throw new Error(`${TOOL.id} is served by ${routing?.provider}, not local`);
      // Both phases each round, the warm-up call, and a spare image's worth.
      return routing.price * (2 * IMAGES * ROUNDS + 2);
    },
  });
  return api.json;
}

async function main(): Promise<number> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pp-batch-'));
  const holder: { server?: ServerProcess } = {};
  let cleaned = false;
  const cleanUp = async () => {
    if (cleaned) return;
    cleaned = true;
    await holder.server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  // Stopped from outside (Ctrl-C, a test's time limit): the server and its engine go too.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      void cleanUp().finally(() => process.exit(130));
    });
  try {
    const request = await setUp(dataDir, holder);
    const [warmUp, ...images] = await smallImages(IMAGES + 1);
    console.log(
      `bench:batch: ${TOOL.title} 2x on the local engine, ${IMAGES} images of 64-128 px, ${ROUNDS} round(s); ` +
        `one process, embedded database; want the batch under +${WANT_OVERHEAD * 100}% per image\n`,
    );
    const warm = performance.now();
    const warmed = await singleCall(request, warmUp as Image);
    if (!warmed.ok) throw new Error(`the warm-up call failed: ${warmed.detail}`);
    console.log(`warm-up call (model load)  ${((performance.now() - warm) / 1000).toFixed(1)} s\n`);

    const singles: Phase[] = [];
    const batches: Phase[] = [];
    const failures: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const runSingles = async () => {
        const phase = await singleCalls(request, images);
        singles.push(phase);
        failures.push(...phase.failures.map((f) => `round ${round} single call ${f}`));
        console.log(line('single calls', phase));
      };
      const runBatch = async () => {
        const phase = await batch(request, images);
        batches.push(phase);
        failures.push(...phase.failures.map((f) => `round ${round} batch ${f}`));
        console.log(line('batch', phase));
      };
      if (ROUNDS > 1) console.log(`round ${round}`);
      if (round % 2 === 1) {
        await runSingles();
        await runBatch();
      } else {
        await runBatch();
        await runSingles();
      }
      const [single, batched] = [singles.at(-1) as Phase, batches.at(-1) as Phase];
      if (ROUNDS > 1)
        console.log(`round ${round} batch overhead per image: ${overhead(perImage(single), perImage(batched))}\n`);
    }
    const total = (phases: Phase[]) => phases.reduce((sum, phase) => sum + phase.seconds, 0);
    const [single, batched] = [total(singles) / (ROUNDS * IMAGES), total(batches) / (ROUNDS * IMAGES)];
    if (ROUNDS > 1)
      console.log(`all rounds: single calls ${single.toFixed(3)} s an image, batch ${batched.toFixed(3)} s an image`);
    const good = (batched - single) / single < WANT_OVERHEAD;
    console.log(
      `batch overhead per image: ${overhead(single, batched)} (want under +${WANT_OVERHEAD * 100}%)${good ? '' : '  MISSED'}`,
    );
    if (failures.length > 0) {
      console.log(`\n${failures.length} images failed:`);
      for (const failure of failures) console.log(`  ${failure}`);
      return 1;
    }
    return 0;
  } finally {
    await cleanUp();
  }
}

process.exit(await main());
