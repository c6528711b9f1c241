// A stored file in another format, bounded (issue 53 items 1 and 11): `?format=` and an Accept asking
// for another image type re-encode in a decode slot (one at a time per user, fewer at once than
// libuv's threads), kept once made and removed with the file, limited per user and stopped at a time
// limit with a sentence; a browser's Accept still gets the stored file, an impossible one a 406.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { OUTPUT_FORMAT_TYPES, type OutputFormat } from '../../src/contract/output-files';
import { toolById } from '../../src/contract/tools';
import { createDecodeSlots, DECODES_AT_ONCE } from '../../src/server/images/decode-slots';
import { convertedFile } from '../../src/server/images/finishing/converted-file';
import {
  CONVERSION_MESSAGES,
  type ConversionOptions,
  type Converter,
  convertedKey,
} from '../../src/server/images/finishing/stored-conversions';
import { findOwnFile } from '../../src/server/jobs/queue/jobs-repository';
import { fileRoutes, formatForAccept } from '../../src/server/jobs/views/file-routes';
import type { TestClient } from '../support/http-client';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { dataUrl, pngBytes, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
beforeAll(async () => {
  backend = await createTestBackend();
});
afterAll(() => backend.stop());

type Owner = { client: TestClient; id: string };

/** A user with one Colorizer result (stored as WebP): its address, id and storage key. */
async function userWithResult(
  colour = '#6c5ce7',
): Promise<Owner & { url: string; fileId: string; storageKey: string }> {
  const { client, id } = await verifiedUser(backend, 100);
  const answer = await client.post<{ output?: string }>(`/api${toolById('colorizer').apiPath}`, {
    image: dataUrl(await pngBytes(48, 32, colour)),
  });
  const url = answer.body.output ?? '';
  const fileId = url.split('/').pop() ?? '';
  const file = await findOwnFile(backend.database.db, fileId, id);
  if (!file) throw new Error(`no result: ${answer.status}`);
  expect(file.contentType).toBe('image/webp');
  return { client, id, url, fileId, storageKey: file.storageKey };
}

/** The file routes alone, on the backend's database, auth and storage, with these conversion bounds. */
function filesApp(conversions: ConversionOptions) {
  const { database, auth, storage } = backend;
  return new Hono().basePath('/api').route('/', fileRoutes({ db: database.db, auth, storage, conversions }));
}

async function read(
  app: { request: Hono['request'] },
  owner: Owner,
  url: string,
  headers: Record<string, string> = {},
) {
  const response = await app.request(url, { headers: { cookie: owner.client.cookieHeader(), ...headers } });
  const bytes = Buffer.from(await response.arrayBuffer());
  const json = response.headers.get('content-type')?.startsWith('application/json')
    ? (JSON.parse(bytes.toString()) as { error?: string })
    : null;
  return { status: response.status, headers: response.headers, bytes, json };
}

const formatOf = async (bytes: Buffer) => (await sharp(bytes).metadata()).format;

/** A converter that counts its calls and otherwise converts as the server does. */
function countingConverter() {
  const calls: OutputFormat[] = [];
  const convert: Converter = (bytes, format, limit) => {
    calls.push(format);
    return convertedFile(bytes, format, limit);
  };
  return { calls, convert };
}

describe('a conversion is kept once made', () => {
  it('a second fetch of the same conversion does no new encoding, and the file’s deletion removes it', async () => {
    const owner = await userWithResult();
    const counting = countingConverter();
    const app = filesApp({ convert: counting.convert });
    const first = await read(app, owner, `${owner.url}?format=png`);
    const second = await read(app, owner, `${owner.url}?format=png`);
    expect([first.status, first.headers.get('content-type'), second.status]).toEqual([200, 'image/png', 200]);
    expect(await formatOf(second.bytes)).toBe('png');
    expect(second.bytes.equals(first.bytes)).toBe(true);
    expect(counting.calls).toEqual(['png']);

    // The real server keeps it too, in storage beside the file; deleting the creation removes both.
    const asAvif = await owner.client.fetchRaw(`${owner.url}?format=avif`);
    expect(asAvif.status).toBe(200);
    expect(await backend.storage.get(convertedKey(owner.storageKey, 'avif'))).not.toBeNull();
    const jobs = await owner.client.get<{ creations: { id: string }[] }>('/api/creations');
    const jobId = jobs.body.creations[0]?.id ?? '';
    expect((await owner.client.request('DELETE', `/api/creations/${jobId}`)).status).toBe(204);
    expect(await backend.storage.get(convertedKey(owner.storageKey, 'avif'))).toBeNull();
    expect(await backend.storage.get(convertedKey(owner.storageKey, 'png'))).toBeNull();
  });
});

describe('the bounds of a conversion', () => {
  it('a user over the limit a minute gets 429 with Retry-After and a sentence; a kept conversion is still served', async () => {
    const owner = await userWithResult();
    const app = filesApp({ perMinute: 2 });
    expect((await read(app, owner, `${owner.url}?format=png`)).status).toBe(200);
    expect((await read(app, owner, `${owner.url}?format=avif`)).status).toBe(200);
    const over = await read(app, owner, `${owner.url}?format=jpeg`);
    expect([over.status, over.json?.error]).toEqual([429, CONVERSION_MESSAGES.tooMany]);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await backend.storage.get(convertedKey(owner.storageKey, 'jpeg'))).toBeNull();
    const kept = await read(app, owner, `${owner.url}?format=png`);
    expect([kept.status, kept.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('a conversion past the time limit answers 503 with a sentence, and nothing is kept', async () => {
    const owner = await userWithResult();
    let finish: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const slots = createDecodeSlots();
    const convert: Converter = async (bytes, format, limit) => {
      await held;
      return convertedFile(bytes, format, limit);
    };
    const app = filesApp({ convert, slots, timeLimitMs: 20 });
    const slow = await read(app, owner, `${owner.url}?format=png`);
    expect([slow.status, slow.json?.error]).toEqual([503, CONVERSION_MESSAGES.tooSlow]);
    expect(Number(slow.headers.get('retry-after'))).toBeGreaterThan(0);
    // The encoder ends later (this user's next slot waits for it): what it made is not kept.
    finish();
    await slots.run(owner.id, async () => undefined);
    expect(await backend.storage.get(convertedKey(owner.storageKey, 'png'))).toBeNull();
  });
});

describe('conversions cannot take every thread', () => {
  // Each held conversion blocks one of libuv's threads in a read of its own named pipe, as an
  // encoder does, until the test writes to that pipe.
  const pipes = mkdtempSync(path.join(tmpdir(), 'pp-conversions-'));
  let next = 0;
  const opened: string[] = [];
  const release = (pipe: string) => {
    const fd = openSync(pipe, 'r+');
    writeSync(fd, 'x');
    closeSync(fd);
  };
  afterEach(() => {
    for (const pipe of opened.splice(0)) release(pipe);
  });
  afterAll(() => rmSync(pipes, { recursive: true, force: true }));

  it('one user’s conversions run one at a time, at most DECODES_AT_ONCE at once, and another user’s read is served meanwhile', async () => {
    const storm = await userWithResult('#d63031');
    const others = [await userWithResult('#00b894'), await userWithResult('#0984e3')];
    const reader = await userWithResult();
    const converting = [storm, ...others];
    const originals = await Promise.all(converting.map((user) => backend.storage.get(user.storageKey)));
    const entered: string[] = [];
    const runningOf = new Map<string, number>();
    let running = 0;
    let most = 0;
    let mostOfOneUser = 0;
    const holdingThreads: Converter = async (bytes, format, limit) => {
      const owner = converting[originals.findIndex((original) => original?.equals(bytes))]?.id ?? 'unknown';
      const pipe = path.join(pipes, `held-${next++}`);
      execFileSync('mkfifo', [pipe]);
      running++;
      runningOf.set(owner, (runningOf.get(owner) ?? 0) + 1);
      most = Math.max(most, running);
      mostOfOneUser = Math.max(mostOfOneUser, runningOf.get(owner) ?? 0);
      const handle = await open(pipe, 'r+');
      opened.push(pipe);
      entered.push(pipe);
      try {
        await handle.read(Buffer.alloc(1), 0, 1, null);
      } finally {
        await handle.close();
        running--;
        runningOf.set(owner, (runningOf.get(owner) ?? 1) - 1);
      }
      return convertedFile(bytes, format, limit);
    };
    const app = filesApp({ convert: holdingThreads, slots: createDecodeSlots() });
    const formats: OutputFormat[] = ['png', 'jpeg', 'avif', 'png', 'jpeg', 'avif'];
    const stormReads = formats.map((format) => read(app, storm, `${storm.url}?format=${format}`));
    const otherReads = others.map((other) => read(app, other, `${other.url}?format=png`));
    await eventually(async () => entered.length >= DECODES_AT_ONCE);

    // Another user's plain read finds a thread while the conversions hold theirs.
    const plain = await read(app, reader, reader.url);
    expect([plain.status, plain.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect(plain.bytes.equals((await backend.storage.get(reader.storageKey)) as Buffer)).toBe(true);
    expect(entered.length).toBe(DECODES_AT_ONCE);

    // Let each held conversion go as it comes: the storm's three, then the repeats from storage.
    let released = 0;
    const done = Promise.all([...stormReads, ...otherReads]);
    let finished = false;
    void done.then(() => {
      finished = true;
    });
    while (!finished) {
      await eventually(async () => finished || entered.length > released);
      const pipe = entered[released];
      if (pipe && !finished) {
        released++;
        opened.splice(opened.indexOf(pipe), 1);
        release(pipe);
      }
    }
    const answers = await done;
    expect(answers.map((a) => a.status)).toEqual(Array(answers.length).fill(200));
    expect(answers.slice(0, formats.length).map((a) => a.headers.get('content-type'))).toEqual(
      formats.map((format) => OUTPUT_FORMAT_TYPES[format]),
    );
    // Three conversions for the storm (its repeats came from storage), one for each other user.
    expect(entered.length).toBe(3 + others.length);
    expect(most).toBeLessThanOrEqual(DECODES_AT_ONCE);
    expect(runningOf.has('unknown')).toBe(false);
    expect(mostOfOneUser).toBe(1);
  });
});

describe('Accept (item 11)', () => {
  it('Accept: image/png gets PNG bytes; a browser’s Accept gets the stored WebP; an impossible one 406', async () => {
    const owner = await userWithResult();
    const raw = (accept: string) =>
      backend.app.request(owner.url, { headers: { cookie: owner.client.cookieHeader(), accept } });

    const png = await raw('image/png');
    expect([png.status, png.headers.get('content-type')]).toEqual([200, 'image/png']);
    expect(await formatOf(Buffer.from(await png.arrayBuffer()))).toBe('png');
    expect(png.headers.get('vary')).toContain('Accept');

    for (const accept of ['*/*', 'image/*', 'image/avif,image/webp,image/apng,image/*,*/*;q=0.8', 'image/webp']) {
      const stored = await raw(accept);
      expect([accept, stored.status, stored.headers.get('content-type')]).toEqual([accept, 200, 'image/webp']);
    }

    for (const accept of ['image/gif', 'application/json', 'image/webp;q=0']) {
      const refused = await raw(accept);
      expect([accept, refused.status]).toEqual([accept, 406]);
      expect(((await refused.json()) as { error: string }).error).toMatch(/Accept asks for none of these/);
    }
  });

  it('reads what an Accept header asks of a stored type', () => {
    expect(formatForAccept(undefined, 'image/webp')).toBe('stored');
    expect(formatForAccept('image/png;q=0.5, image/avif', 'image/webp')).toBe('avif');
    expect(formatForAccept('image/webp;q=0, image/*', 'image/webp')).toBe('png');
    expect(formatForAccept('image/png, */*;q=0.1', 'image/webp')).toBe('stored');
    expect(formatForAccept('text/html', 'image/webp')).toBeNull();
  });
});
