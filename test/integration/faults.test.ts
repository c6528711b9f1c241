// Faults around a tool job: a provider that answers nonsense or never answers, and storage that
// cannot write. In every case the user gets a clear message, no job is left running, and the
// tokens come back: the ledger is exact afterwards.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { files, jobs } from '../../src/server/db/schema';
import type { InferenceProvider, ToolResult } from '../../src/server/inference/provider';
import { findLedgerMismatches } from '../../src/server/ledger/ledger';
import { createFsStorage } from '../../src/server/storage/fs-storage';
import type { FileStorage } from '../../src/server/storage/storage';
import { createTestBackend, eventually, type TestBackend } from '../support/test-backend';
import { dataUrl, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

/** A provider that answers every call with `answer` (or waits for the job's timeout). */
function answering(answer: (signal: AbortSignal) => Promise<ToolResult>): InferenceProvider {
  return { name: 'local', supports: () => true, run: (_input, signal) => answer(signal) };
}

/** The user's one job failed (none left running), kept no output, and the ledger is exact. */
async function expectFailedAndRefunded(backend: TestBackend, userId: string) {
  const rows = await backend.database.db.select().from(jobs).where(eq(jobs.userId, userId));
  expect(rows.map((job) => job.status)).toEqual(['failed']);
  const outputs = await backend.database.db.select().from(files).where(eq(files.userId, userId));
  expect(outputs.filter((file) => file.kind === 'output')).toEqual([]);
  expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
}

const upscale = async () => ({ image: dataUrl(await pngBytes()), scale: 2 });

describe('a provider that answers nonsense', () => {
  it.each<[string, ToolResult]>([
    ['no image', { kind: 'images', images: [] }],
    [
      'an HTML error page labelled as webp',
      { kind: 'images', images: [{ bytes: Buffer.from('<html>502 Bad Gateway</html>'), contentType: 'image/webp' }] },
    ],
    [
      'a PNG labelled as webp',
      {
        kind: 'images',
        images: [
          { bytes: Buffer.from('89504e470d0a1a0a0000000d494844520000000800000008', 'hex'), contentType: 'image/webp' },
        ],
      },
    ],
    ['an analysis where images were asked for', { kind: 'analysis', keywords: [], colors: [] }],
  ])('%s: the call fails with the tool’s message and is refunded', async (_, answer) => {
    const backend = await createTestBackend({ inference: routerWith(answering(async () => answer)) });
    try {
      const { client, id } = await verifiedUser(backend, 20);
      const response = await client.post<{ error: string; refunded: boolean; balance: number }>(
        '/api/upscale-image',
        await upscale(),
      );
      expect(response.status).toBe(502);
      expect(response.body).toMatchObject({ error: 'Upscale failed. Please try again.', refunded: true, balance: 20 });
      await expectFailedAndRefunded(backend, id);
    } finally {
      await backend.stop();
    }
  });

  // Checked against the analysis the API declares (contract/api-response-schemas.ts ANALYSIS): each
  // fault alone fails the job.
  it.each<[string, { keywords: unknown; colors: unknown }]>([
    ['a score of 7', { keywords: [{ keyword: 'cup', score: 7 }], colors: [] }],
    ['a colour without a hex', { keywords: [], colors: [{ hex: 'brown', name: 'Brown', percentage: 100 }] }],
    ['a keyword without its word', { keywords: [{ score: 0.5 }], colors: [] }],
    ['no colours at all', { keywords: [{ keyword: 'cup', score: 0.5 }], colors: undefined }],
  ])('a malformed analysis (%s) is refunded too', async (_, analysis) => {
    const backend = await createTestBackend({
      inference: routerWith(answering(async () => ({ kind: 'analysis', ...analysis }) as ToolResult)),
    });
    try {
      const { client, id } = await verifiedUser(backend, 20);
      const response = await client.post<{ refunded: boolean; balance: number }>('/api/analyze-image', {
        image: dataUrl(await pngBytes()),
      });
      expect(response.status).toBe(502);
      expect(response.body).toMatchObject({ refunded: true, balance: 20 });
      await expectFailedAndRefunded(backend, id);
    } finally {
      await backend.stop();
    }
  });
});

describe('a provider that never answers', () => {
  it('is given up on at the job timeout: failed, refunded, nothing left running', async () => {
    const backend = await createTestBackend({
      env: { TOOL_JOB_EXPIRE_SECONDS: '2', TOOL_WAIT_SECONDS: '15' },
      inference: routerWith(
        answering(
          (signal) =>
            new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
        ),
      ),
    });
    try {
      const { client, id } = await verifiedUser(backend, 20);
      const response = await client.post<{ error: string; balance: number }>('/api/upscale-image', await upscale());
      expect(response.status).toBe(502);
      expect(response.body).toMatchObject({ error: 'Upscale failed. Please try again.', balance: 20 });
      expect(await tokensOf(client)).toBe(20);
      await expectFailedAndRefunded(backend, id);
    } finally {
      await backend.stop();
    }
  }, 30_000);
});

describe('storage that cannot write', () => {
  function failingStorage(dir: string, fails: (key: string) => boolean): FileStorage {
    const real = createFsStorage(dir);
    return {
      kind: real.kind,
      put: async (key, bytes, type) => {
        if (fails(key)) throw new Error(`disk full writing ${key}`);
        return real.put(key, bytes, type);
      },
      get: (key) => real.get(key),
      delete: (key) => real.delete(key),
    };
  }

  it('refuses a call whose upload cannot be stored: 500, nothing charged, no job', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-faults-'));
    const backend = await createTestBackend({ storage: failingStorage(dir, (key) => key.startsWith('inputs/')) });
    try {
      const { client, id } = await verifiedUser(backend, 20);
      const response = await client.post<{ error: string }>('/api/upscale-image', await upscale());
      expect(response.status).toBe(500);
      expect(response.body.error).toMatch(/^Something went wrong on our side\. Please try again\. Reference: \S+$/);
      expect(await tokensOf(client)).toBe(20);
      expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toEqual([]);
      expect(await findLedgerMismatches(backend.database.db)).toEqual([]);
    } finally {
      await backend.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails and refunds a job whose output cannot be stored, after the queue’s retries', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-faults-'));
    const backend = await createTestBackend({
      env: { TOOL_WAIT_SECONDS: '0' },
      storage: failingStorage(dir, (key) => key.startsWith('outputs/')),
    });
    try {
      const { client, id } = await verifiedUser(backend, 20);
      const response = await client.post<{ jobId: string }>('/api/upscale-image', await upscale());
      expect(response.status).toBe(202);
      const job = await eventually(async () => {
        const view = await client.get<{ status: string; error: string | null }>(`/api/jobs/${response.body.jobId}`);
        return view.body.status === 'failed' ? view.body : null;
      }, 60_000);
      expect(job.error).toBe('Upscale failed. Please try again.');
      expect(await tokensOf(client)).toBe(20);
      await expectFailedAndRefunded(backend, id);
    } finally {
      await backend.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 90_000);
});
