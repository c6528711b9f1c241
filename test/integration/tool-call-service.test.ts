// The tool-call service on its own, without HTTP: the rules in the spec's order and the money.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_MESSAGES, toolById } from '../../src/contract/tools';
import { jobs, ledger } from '../../src/server/db/schema';
import { createDemoProvider } from '../../src/server/inference/demo/demo-provider';
import { createInferenceRouter } from '../../src/server/inference/routing';
import { callTool, type ToolCallServiceDeps } from '../../src/server/jobs/request/tool-call-service';
import { readOrCreateProfileWithStorage } from '../../src/server/profiles/profiles';
import { SERVER_TOOLS } from '../../src/server/tools/registry';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { toolCallDeps } from '../support/tool-call-deps';
import { dataUrl, instantProvider, pngBytes, routerWith, verifiedUser } from '../support/tool-fixtures';

let backend: TestBackend;
let deps: ToolCallServiceDeps;
beforeAll(async () => {
  // A paid provider, so that the money below is real (the demo's free previews: the last test).
  backend = await createTestBackend({ inference: routerWith(instantProvider()) });
  deps = toolCallDeps(backend, { production: false });
});
afterAll(() => backend.stop());

const textToPic = toolById('text-to-pic');
/** What the route reads with the call's count (jobs/request/tool-call-limit.ts). */
const callerOf = (userId: string) => readOrCreateProfileWithStorage(backend.database.db, userId);
const call = async (user: { id: string; emailVerified: boolean }, body: Record<string, unknown>, key?: string) =>
  callTool(deps, {
    user,
    caller: await callerOf(user.id),
    tool: textToPic,
    body,
    rawBody: JSON.stringify(body),
    idempotencyKey: key,
  });

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
    expect(await call(user, { prompt: '' })).toMatchObject({
      status: 400,
      error: 'Please describe the image you want.',
    });
    expect(await call(user, { prompt: 'foxes', numOutputs: 4 })).toEqual({
      kind: 'refused',
      status: 402,
      error: TOOL_MESSAGES.notEnoughTokens,
      balance: 3,
    });
    const analyzer = await callTool(deps, {
      user,
      caller: await callerOf(id),
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
    expect(again).toEqual({ kind: 'job', jobId: (first as { jobId: string }).jobId, isNew: false, handedOver: false });
    expect(await call(user, { prompt: 'a cat' }, 'key-1')).toMatchObject({
      status: 422,
      error: TOOL_MESSAGES.idempotencyMismatch,
    });
    const debits = await backend.database.db.select().from(ledger).where(eq(ledger.userId, id));
    expect(debits.filter((row) => row.reason === 'job').map((row) => row.delta)).toEqual([-1]);
  });

  it('queues a free preview where the demo serves the tool, also on an empty balance (decision 039)', async () => {
    const demoOnly = createInferenceRouter({ default: 'demo', perTool: {} }, {}, createDemoProvider(SERVER_TOOLS));
    const onDemo = { ...deps, inference: demoOnly };
    const rich = await verifiedUser(backend, 20);
    const preview = await callTool(onDemo, {
      user: { id: rich.id, emailVerified: true },
      caller: await callerOf(rich.id),
      tool: textToPic,
      body: { prompt: 'a fox' },
      rawBody: '{"prompt":"a fox"}',
    });
    expect(preview).toMatchObject({ kind: 'job', isNew: true });
    const [job] = await backend.database.db.select().from(jobs).where(eq(jobs.userId, rich.id));
    expect(job).toMatchObject({ cost: 1, charged: 0, provider: 'demo' });
    const rows = await backend.database.db.select().from(ledger).where(eq(ledger.userId, rich.id));
    expect(rows.filter((row) => row.reason === 'job')).toEqual([]);

    // A free preview takes nothing, so a balance below the price does not stand in its way.
    const broke = await verifiedUser(backend, 0);
    expect(
      await callTool(onDemo, {
        user: { id: broke.id, emailVerified: true },
        caller: await callerOf(broke.id),
        tool: textToPic,
        body: { prompt: 'a fox', numOutputs: 4 },
        rawBody: '{"prompt":"a fox","numOutputs":4}',
      }),
    ).toMatchObject({ kind: 'job', isNew: true });
    const [brokeJob] = await backend.database.db.select().from(jobs).where(eq(jobs.userId, broke.id));
    expect(brokeJob).toMatchObject({ cost: 4, charged: 0, provider: 'demo' });
  });
});
