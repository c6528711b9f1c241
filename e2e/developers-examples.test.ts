// The /developers page's examples run as written (issue 52): each one, as the page shows it, against
// the running server, as a developer would run it: the key in PP_API_KEY, the photos in the folder it
// runs in; the shell ones with bash (curl and jq), the code ones with Node (tsx). Each is checked for
// what it is meant to do (a PNG saved, a zip of every result, the handler reading a real delivery),
// and the page is checked to show exactly this text. They run on a server of their own whose Background
// Remover is the demo's (the upload as a PNG with an alpha channel): what is tested is the examples'
// commands, flags and handling of the answers, not the cut-out's network, which the tool tests run;
// its 7 runs were most of this file's CPU (issue 55). Small photos keep the rest low.
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  batchExample,
  curlExample,
  fetchExample,
  resultFileExample,
  webhookExample,
} from '../src/web/features/developers/examples';
import { appIsLive, DESKTOP, launchBrowser, nextVisitorAddress, openPage } from './support/browser';
import { apiSignUp, verifyByMail } from './support/mail';
import { type ServerProcess, startServerProcess } from './support/server';
import { uniqueEmail } from './support/visitors';

const ROOT = path.resolve(import.meta.dirname, '..');
const FIXTURES = path.join(ROOT, 'test/fixtures/images');
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const FIRST_CALL_PATH = '/api/remove-background';
/** The tool the guide walks through (its web module's `apiGuide`): the batch example's tool. */
const GUIDE_TOOL = 'background-remover';
/** A key of the right shape that no account has: every call with it is refused (401). */
const UNKNOWN_KEY = `pp_${'x'.repeat(43)}`;

/** A model run on a busy 2-core machine (CI runs every project at once): a hang's bound, not a speed. */
const EXAMPLE_TIMEOUT_MS = 180_000;

type Run = { code: number | null; stdout: string; stderr: string };

/** Runs a command to its end, its output collected (a failing one is a result to assert on, not a throw). */
function run(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const smallJpegs = new Map<string, Promise<Buffer>>();
/** A small JPEG of one of the fixtures (made once), as a phone's photo would be named in a folder. */
async function photo(dir: string, name: string, fixture: string) {
  if (!smallJpegs.has(fixture)) {
    smallJpegs.set(fixture, sharp(path.join(FIXTURES, fixture)).resize({ width: 160 }).jpeg().toBuffer());
  }
  writeFileSync(path.join(dir, name), await (smallJpegs.get(fixture) as Promise<Buffer>));
}

const isPng = (bytes: Uint8Array) =>
  Buffer.from(bytes.subarray(0, 8)).equals(Buffer.from('\x89PNG\r\n\x1a\n', 'latin1'));

describe('the /developers examples, run as the page shows them', () => {
  let server: ServerProcess;
  let baseUrl: string;
  /** What the page puts in its examples: the address it is served from. */
  let origin: string;
  let key: string;
  let secret: string;
  /** Each test's own folder, inside the repository so Node finds the packages an example imports. */
  let workRoot: string;
  const folder = (name: string) => {
    const dir = path.join(workRoot, name);
    mkdirSync(dir);
    return dir;
  };
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // The run's shared server serves the cut-out's network: this one the demo's, and no content check
    // (a model run per upload) for photos of a cat, a rocket and Grace Hopper.
    server = await startServerProcess({
      env: { TRUST_PROXY_HOPS: '1', INFERENCE_TOOLS: 'background-remover=demo', NSFW_POLICY: 'allow' },
    });
    baseUrl = server.url;
    origin = new URL(baseUrl).origin;
    // A developer's account: signed up, verified, a key made in User Settings, its webhook secret read there.
    const headers = { 'x-forwarded-for': nextVisitorAddress() };
    const email = uniqueEmail('examples');
    const cookie = await apiSignUp(baseUrl, email, { headers });
    await verifyByMail(baseUrl, email, cookie, headers);
    const session = { ...headers, cookie, origin: baseUrl, 'content-type': 'application/json' };
    const made = await fetch(`${baseUrl}/api/keys`, {
      method: 'POST',
      headers: session,
      body: JSON.stringify({ name: 'examples' }),
    });
    expect(made.status).toBe(201);
    key = ((await made.json()) as { key: string }).key;
    const read = await fetch(`${baseUrl}/api/webhook-secret`, { headers: session });
    expect(read.status).toBe(200);
    secret = ((await read.json()) as { secret: string }).secret;
    mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
    workRoot = mkdtempSync(path.join(ROOT, '.tmp/developers-examples-'));
  });

  afterAll(async () => {
    for (const child of children) child.kill();
    if (workRoot) rmSync(workRoot, { recursive: true, force: true });
    await server?.stop();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  it(
    'the first call with curl saves the cut-out as a PNG',
    async () => {
      const cwd = folder('curl');
      await photo(cwd, 'photo.jpg', 'grace_hopper.jpg');
      const result = await run('bash', ['-c', curlExample(origin, FIRST_CALL_PATH)], { cwd, env: { PP_API_KEY: key } });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const saved = readFileSync(path.join(cwd, 'no-background.png'));
      expect(isPng(saved)).toBe(true);
      expect((await sharp(saved).metadata()).hasAlpha).toBe(true);
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    'the fetch example prints the output URL and the balance',
    async () => {
      const cwd = folder('fetch');
      await photo(cwd, 'photo.jpg', 'rocket.jpg');
      writeFileSync(path.join(cwd, 'first-call.mts'), fetchExample(origin, FIRST_CALL_PATH));
      const result = await run(TSX, ['first-call.mts'], { cwd, env: { PP_API_KEY: key } });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const printed = result.stdout.match(/^(\/api\/files\/\S+) tokens left: (\d+)\n$/);
      expect(printed, result.stdout).not.toBeNull();
      const output = await fetch(`${origin}${printed?.[1]}`, { headers: { authorization: `Bearer ${key}` } });
      expect(output.headers.get('content-type')).toBe('image/png');
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    'the webhook handler reads a real delivery: the job id, status and output, and refuses a forged one',
    async () => {
      const cwd = folder('webhook');
      writeFileSync(path.join(cwd, 'handler.ts'), webhookExample);
      // The developer's server around the handler: a Request from each POST, its Response sent back.
      writeFileSync(
        path.join(cwd, 'receiver.mts'),
        `import http from 'node:http';
import { handle } from './handler.ts';
const server = http.createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
  const answer = await handle(new Request('http://127.0.0.1' + req.url, { method: 'POST', headers, body: Buffer.concat(chunks) }));
  res.writeHead(answer.status).end(await answer.text());
});
server.listen(0, '127.0.0.1', () => console.log('listening on', server.address().port));
`,
      );
      const receiver = spawn(TSX, ['receiver.mts'], { cwd, env: { ...process.env, PP_WEBHOOK_SECRET: secret } });
      children.push(receiver);
      let logged = '';
      receiver.stdout.on('data', (chunk) => {
        logged += chunk;
      });
      receiver.stderr.on('data', (chunk) => {
        logged += chunk;
      });
      await expect.poll(() => logged, { timeout: 60_000 }).toMatch(/listening on \d+/);
      const hook = `http://127.0.0.1:${logged.match(/listening on (\d+)/)?.[1]}/hooks/picture-palette`;

      const image = (
        await sharp(path.join(FIXTURES, 'grace_hopper.jpg')).resize({ width: 160 }).jpeg().toBuffer()
      ).toString('base64');
      const call = await fetch(`${origin}${FIRST_CALL_PATH}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', prefer: 'wait=60' },
        body: JSON.stringify({ image, webhook: hook }),
      });
      expect(call.status).toBe(200);
      const { jobId, output } = (await call.json()) as { jobId: string; output: string };
      // console.log of the handler: the event's type, then the job's id, status and outputs.
      await expect
        .poll(() => logged, { timeout: 60_000 })
        .toContain(`job.succeeded ${jobId} succeeded [ '${output}' ]`);
      await expect
        .poll(
          async () => {
            const job = await fetch(`${origin}/api/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } });
            return ((await job.json()) as { webhook?: unknown }).webhook;
          },
          { timeout: 60_000 },
        )
        .toMatchObject({ status: 'delivered', lastStatus: 204 });

      const forged = await fetch(hook, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'webhook-id': `job_${jobId}_succeeded`,
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': `v1,${Buffer.from('not the signature').toString('base64')}`,
        },
        body: JSON.stringify({ type: 'job.succeeded', timestamp: new Date().toISOString(), data: { id: jobId } }),
      });
      expect(forged.status).toBe(400);
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    'the batch script waits for every image, then downloads a zip of all the cut-outs',
    async () => {
      const cwd = folder('batch');
      await photo(cwd, 'IMG_0412.jpg', 'grace_hopper.jpg');
      await photo(cwd, 'IMG_0413.jpg', 'rocket.jpg');
      await photo(cwd, 'IMG_0414.jpg', 'chelsea.png');
      writeFileSync(path.join(cwd, 'batch.sh'), batchExample(origin, GUIDE_TOOL));
      const result = await run('bash', ['batch.sh'], { cwd, env: { PP_API_KEY: key } });
      expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' });
      // Each image as it was queued, then the counts until none waits or runs.
      expect(result.stdout.trimEnd().split('\n').at(-1)).toBe('{"waiting":0,"running":0,"done":3,"failed":0}');
      const entries = unzipSync(new Uint8Array(readFileSync(path.join(cwd, 'results.zip'))));
      expect(Object.keys(entries).sort()).toEqual([
        'IMG_0412-background-removed.png',
        'IMG_0413-background-removed.png',
        'IMG_0414-background-removed.png',
        'README.txt',
      ]);
      for (const [name, bytes] of Object.entries(entries)) if (name !== 'README.txt') expect(isPng(bytes)).toBe(true);
    },
    EXAMPLE_TIMEOUT_MS,
  );

  it(
    'the result-file example makes a 2000 px white square JPEG',
    async () => {
      const cwd = folder('result-file');
      await photo(cwd, 'sneaker.jpg', 'rocket.jpg');
      const result = await run('bash', ['-c', resultFileExample(origin)], { cwd, env: { PP_API_KEY: key } });
      expect(result).toMatchObject({ code: 0, stderr: '' });
      const listing = sharp(readFileSync(path.join(cwd, 'sneaker-listing.jpg')));
      expect(await listing.metadata()).toMatchObject({ format: 'jpeg', width: 2000, height: 2000 });
      const corner = await listing.extract({ left: 0, top: 0, width: 1, height: 1 }).raw().toBuffer();
      expect([...corner]).toEqual([255, 255, 255]);
    },
    EXAMPLE_TIMEOUT_MS,
  );

  // A refusal (here: a key no account has, 401) must stop the command, visibly, and leave no file
  // behind that looks like a result (today's PNG holding a JSON error).
  for (const [name, example, file, script] of [
    ['the first call with curl', (at: string) => curlExample(at, FIRST_CALL_PATH), 'no-background.png', false],
    ['the result-file example', resultFileExample, 'sneaker-listing.jpg', false],
    ['the batch script', (at: string) => batchExample(at, GUIDE_TOOL), 'results.zip', true],
  ] as const) {
    it(
      `${name} fails visibly when refused, and saves no ${file}`,
      async () => {
        const text = example(origin);
        const cwd = folder(`refused-${file}`);
        for (const photoName of ['photo.jpg', 'sneaker.jpg', 'IMG_0412.jpg', 'IMG_0413.jpg', 'IMG_0414.jpg']) {
          await photo(cwd, photoName, 'grace_hopper.jpg');
        }
        if (script) writeFileSync(path.join(cwd, 'example.sh'), text);
        const result = await run('bash', script ? ['example.sh'] : ['-c', text], {
          cwd,
          env: { PP_API_KEY: UNKNOWN_KEY },
        });
        expect(result.code).not.toBe(0);
        expect(result.stderr).toContain('401');
        expect(existsSync(path.join(cwd, file))).toBe(false);
      },
      EXAMPLE_TIMEOUT_MS,
    );
  }

  describe.runIf(inject('browserAvailable'))('on the page', () => {
    it(
      'shows exactly these examples, with the address it is served from',
      async () => {
        const browser = await launchBrowser();
        try {
          const { page, errors } = await openPage(browser, DESKTOP);
          await page.goto(`${baseUrl}/developers`);
          await appIsLive(page);
          const blocks = page.locator('pre code');
          await expect.poll(() => blocks.first().textContent()).toContain(origin);
          const shown = await blocks.allTextContents();
          for (const example of [
            curlExample(origin, FIRST_CALL_PATH),
            fetchExample(origin, FIRST_CALL_PATH),
            webhookExample,
            batchExample(origin, GUIDE_TOOL),
            resultFileExample(origin),
          ]) {
            expect(shown).toContain(example);
          }
          expect(errors).toEqual([]);
        } finally {
          await browser.close();
        }
      },
      EXAMPLE_TIMEOUT_MS,
    );
  });
});
