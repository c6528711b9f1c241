// The tool-call service on its own, without HTTP: the rules in the spec's order and the money.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_MESSAGES, toolById } from '../../src/contract/tools';
import { jobs, ledger } from '../../src/server/db/schema';
import { createImageModeration } from '../../src/server/images/moderation/image-moderation';
import { quietLogger } from '../../src/server/log';
import { callTool, type ToolCallServiceDeps } from '../../src/server/tools/tool-call-service';
import { createTestBackend, NEUTRAL_CLASSIFIER, type TestBackend } from '../support/test-backend';
import { dataUrl, pngBytes, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
let deps: ToolCallServiceDeps;
beforeAll(async () => {
  backend = await createTestBackend();
  deps = {
    db: backend.database.db,
    queue: backend.queue,
    storage: backend.storage,
    inference: backend.inference,
    moderation: createImageModeration({ policy: 'block', threshold: 0.7 }, NEUTRAL_CLASSIFIER),
    logger: quietLogger(),
    maxActiveJobsPerUser: 10,
    storageQuotaBytes: 1024 ** 3,
  };
});
afterAll(() => backend.stop());

const textToPic = toolById('text-to-pic');
const call = (user: { id: string; emailVerified: boolean }, body: Record<string, unknown>, key?: string) =>
  callTool(deps, { user, tool: textToPic, body, rawBody: JSON.stringify(body), idempotencyKey: key });

describe('callTool', () => {
  it('refuses an unverified caller before it looks at the input, and charges nothing', async () => {
    const { id } = await verifiedUser(backend, 20);
    expect(await call({ id, emailVerified: false }, { prompt: 42 })).toEqual({
      kind: 'refused',
      status: 403,
      error: TOOL_MESSAGES.unverified,
    });
    expect(await call({ id, emailVerified: true }, { prompt: 'x', userId: 'someone else' })).toMatchObject({
      status: 403,
      error: TOOL_MESSAGES.wrongUser,
    });
  });

  it('answers bad input and too few tokens with their reasons, before any image is decoded', async () => {
    const { id } = await verifiedUser(backend, 3);
    const user = { id, emailVerified: true };
    expect(await call(user, { prompt: '' })).toMatchObject({ status: 400, error: 'prompt: is required' });
    expect(await call(user, { prompt: 'foxes', numOutputs: 4 })).toEqual({
      kind: 'refused',
      status: 402,
      error: TOOL_MESSAGES.notEnoughTokens,
      balance: 3,
    });
    const analyzer = await callTool(deps, {
      user,
      tool: toolById('image-analyzer'),
      body: { image: dataUrl(await pngBytes(40, 3)) },
      rawBody: '{}',
    });
    expect(analyzer).toMatchObject({ status: 400 });
    expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toEqual([]);
  });

  it('charges a call once, answers its key with the same job, and refuses the key for another body', async () => {
    const { id } = await verifiedUser(backend, 20);
    const user = { id, emailVerified: true };
    const first = await call(user, { prompt: 'a fox' }, 'key-1');
    expect(first).toMatchObject({ kind: 'job', isNew: true });
    const again = await call(user, { prompt: 'a fox' }, 'key-1');
    expect(again).toEqual({ kind: 'job', jobId: (first as { jobId: string }).jobId, isNew: false });
    expect(await call(user, { prompt: 'a cat' }, 'key-1')).toMatchObject({
      status: 422,
      error: TOOL_MESSAGES.idempotencyMismatch,
    });
    const debits = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    expect(debits.filter((row) => row.reason === 'job').map((row) => row.delta)).toEqual([-1]);
  });
});
