// Images and users for tool tests: real PNG/JPEG/WEBP bytes made with sharp, and verified users
// with a chosen balance (granted through the ledger, as support would).

import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Profile } from '../../src/contract/accounts';
import { grantTokens } from '../../src/server/admin/commands';
import { user } from '../../src/server/db/schema';
import { createDemoProvider } from '../../src/server/inference/demo/demo-provider';
import type { InferenceProvider, ToolResult } from '../../src/server/inference/provider';
import { createInferenceRouter, type InferenceRouter } from '../../src/server/inference/routing';
import type { JobRow } from '../../src/server/jobs/queue/jobs-repository';
import { insertChargedJob } from '../../src/server/jobs/request/charge';
import { SERVER_TOOLS, type ToolInput } from '../../src/server/tools/registry';
import { TestClient } from './http-client';
import { createTestBackend, type TestBackend } from './test-backend';

export async function pngBytes(width = 32, height = 24, color = '#6c5ce7') {
  return sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();
}

export const dataUrl = (bytes: Buffer, mime = 'image/png') => `data:${mime};base64,${bytes.toString('base64')}`;

let users = 0;

/**
 * Charges and queues a Text to Pic job of 1 token for `userId` straight through the repository (no
 * request, no wake), handed to `worker` when it is given and no other job waits.
 */
export function chargeTextToPicJob(
  backend: TestBackend,
  userId: string,
  worker: { workerId: string | null } | null = null,
) {
  return insertChargedJob(
    backend.database.db,
    {
      id: randomUUID(),
      userId,
      tool: 'text-to-pic',
      cost: 1,
      charged: 1,
      input: { prompt: 'a lighthouse at dusk', numOutputs: 1 },
      provider: 'demo',
      idempotencyKey: null,
      requestHash: randomUUID(),
    },
    [],
    10,
    worker,
  );
}

/** A signed-in, verified user with `tokens` tokens. */
export async function verifiedUser(backend: TestBackend, tokens = 20) {
  const client = new TestClient(backend.app, backend.config.appUrl);
  const email = `tool.user${++users}.${Date.now()}@example.com`;
  const signUp = await client.signUp(email);
  if (signUp.status !== 200) throw new Error(`sign-up failed: ${signUp.status}`);
  await backend.database.db.update(user).set({ emailVerified: true }).where(eq(user.email, email));
  const id = (await client.get<{ user: { id: string } }>('/api/auth/get-session')).body.user.id;
  if (tokens > 20) await grantTokens(backend.database.db, email, tokens - 20);
  if (tokens < 20) {
    const { applyLedgerEntry } = await import('../../src/server/ledger/ledger');
    await applyLedgerEntry(backend.database.db, {
      userId: id,
      delta: tokens - 20,
      reason: 'grant',
      reference: `test-debit:${id}`,
    });
  }
  return { client, email, id };
}

/** The instant provider's answer, encoded once: its calls cost the app's work alone (the benches). */
let tinyWebpBytes: Promise<Buffer> | null = null;
const tinyWebp = () =>
  (tinyWebpBytes ??= sharp({ create: { width: 8, height: 8, channels: 3, background: '#123456' } })
    .webp()
    .toBuffer());

/** A provider that answers at once with a tiny image (or fails), for money and load tests. */
export function instantProvider(
  options: { fail?: boolean; delayMs?: number; until?: Promise<void> } = {},
): InferenceProvider & {
  calls: ToolInput[];
  finished: number;
} {
  const calls: ToolInput[] = [];
  const provider = {
    name: 'local' as const,
    calls,
    /** Runs that have returned (or thrown). */
    finished: 0,
    supports: () => true,
    async run(input: ToolInput): Promise<ToolResult> {
      calls.push(input);
      try {
        return await answer(input);
      } finally {
        provider.finished++;
      }
    },
  };
  async function answer(input: ToolInput): Promise<ToolResult> {
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
    if (options.until) await options.until;
    if (options.fail) throw new Error('provider exploded');
    if (input.tool === 'image-analyzer')
      return { kind: 'analysis', keywords: [{ keyword: 'test', score: 0.5 }], colors: [] };
    const count = 'numOutputs' in input ? input.numOutputs : 1;
    const bytes = await tinyWebp();
    return {
      kind: 'images',
      images: Array.from({ length: count }, () => ({ bytes, contentType: 'image/webp' as const })),
    };
  }
  return provider;
}

/**
 * The demo's drawings (the size and format each tool answers) served under a paid provider's name:
 * for tests about what a user's paid results become (My Creations, exports), where the real demo's
 * results would be free previews.
 */
export function paidLookalikeOfDemo(): InferenceProvider {
  return { ...createDemoProvider(SERVER_TOOLS), name: 'local' };
}

export const routerWith = (provider: InferenceProvider): InferenceRouter =>
  createInferenceRouter({ default: 'local', perTool: {} }, { local: provider }, provider);

/** A backend (with `env` set) whose every tool answers as paidLookalikeOfDemo does: each call charged. */
export const paidToolsBackend = (env: Record<string, string> = {}) =>
  createTestBackend({ env, inference: routerWith(paidLookalikeOfDemo()) });

/** The balance the server reports to this client's user (GET /api/profile). */
export const tokensOf = async (client: TestClient) => (await client.get<Profile>('/api/profile')).body.tokens;

/** A finished job as a worker hands it over (only what the relay carries matters here). */
export function finishedJobRow(id: string): JobRow {
  const at = new Date('2026-11-26T05:00:00.000Z');
  return {
    id,
    userId: 'user-1',
    tool: 'text-to-pic',
    status: 'succeeded',
    cost: 5,
    charged: 5,
    input: { prompt: 'a lighthouse' },
    provider: 'local',
    providerRef: null,
    result: { files: ['f1'] },
    error: null,
    idempotencyKey: null,
    requestHash: 'h',
    attempts: 1,
    runAfter: null,
    queueRound: 0,
    workerId: null,
    shareToken: null,
    webhookUrl: null,
    batchId: null,
    batchItem: null,
    sourceName: null,
    parentJobId: null,
    createdAt: at,
    startedAt: at,
    finishedAt: at,
  };
}
