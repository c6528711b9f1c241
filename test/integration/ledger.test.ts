// The ledger's rule, held by its one statement (ledger/ledger.ts balanceChangeCtes), whether it runs
// alone (a purchase, a refund, a grant) or inside the tool call's charge: every balance change is a
// ledger row, never below zero, each (reason, reference) once, so the balance a user sees is always
// the sum of their ledger.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_PACKAGES } from '../../src/contract/packages';
import { grantTokens } from '../../src/server/admin/commands';
import { jobs, ledger } from '../../src/server/db/schema';
import type { InferenceProvider } from '../../src/server/inference/provider';
import { applyLedgerEntry, findLedgerMismatches, InsufficientTokensError } from '../../src/server/ledger/ledger';
import { createTestBackend, type TestBackend } from '../support/test-backend';
import { dataUrl, instantProvider, pngBytes, routerWith, tokensOf, verifiedUser } from '../support/tool-fixtures';

const [pack500] = TOKEN_PACKAGES;
if (!pack500) throw new Error('no packages');

describe('the ledger', () => {
  let backend: TestBackend;
  beforeAll(async () => {
    // The local engine's name (its prices), answering at once; every upscale fails (refunded).
    const instant = instantProvider();
    const provider: InferenceProvider = {
      ...instant,
      async run(input, signal) {
        if (input.tool === 'image-upscaler') throw new Error('provider exploded');
        return instant.run(input, signal);
      },
    };
    backend = await createTestBackend({ inference: routerWith(provider) });
  });
  afterAll(() => backend.stop());
  afterEach(async () => expect(await findLedgerMismatches(backend.database.db)).toEqual([]));

  const ledgerOf = async (userId: string) =>
    (await backend.database.db.select().from(ledger).where(eq(ledger.userId, userId)))
      .map((row) => `${row.reason} ${row.delta}`)
      .sort();

  it('keeps the balance the sum of the ledger through a charge, a refund, a free preview, a purchase and a grant', async () => {
    const { client, email, id } = await verifiedUser(backend, 20);

    const generated = await client.post<{ charged: number }>('/api/generate-image', {
      prompt: 'a small boat',
      numOutputs: 2,
    });
    expect(generated.status).toBe(200);
    expect(generated.body.charged).toBe(2);

    const failed = await client.post<{ refunded: boolean; balance: number }>('/api/upscale-image', {
      image: dataUrl(await pngBytes()),
      scale: 2,
    });
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ refunded: true, balance: 18 });

    // Background Swap on the local engine is a free preview: charged nothing, no ledger row.
    const preview = await client.post<{ charged: number }>('/api/background-swap', {
      prompt: 'on a beach',
      image: dataUrl(await pngBytes(40, 30)),
      num_outputs: 1,
    });
    expect(preview.status).toBe(200);
    expect(preview.body.charged).toBe(0);

    const session = await client.post<{ url: string }>('/api/create-checkout-session', { priceId: pack500.id });
    expect((await client.post(`${session.body.url}/pay`)).status).toBe(303);
    await grantTokens(backend.database.db, email, 7, 'goodwill');

    expect(await tokensOf(client)).toBe(20 - 2 + pack500.tokens + 7);
    expect(await ledgerOf(id)).toEqual(
      ['signup 20', 'job -2', 'job -1', 'refund 1', `purchase ${pack500.tokens}`, 'grant 7'].sort(),
    );
    expect(await findLedgerMismatches(backend.database.db, id)).toEqual([]);
  });

  it('applies an entry once, however often it is repeated, also when the repeats race', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const entry = { userId: id, delta: 5, reason: 'grant' as const, reference: `once:${id}` };
    const results = await Promise.all(Array.from({ length: 8 }, () => applyLedgerEntry(backend.database.db, entry)));
    expect(results.filter((r) => r.applied)).toEqual([{ applied: true, balance: 25 }]);
    expect((await applyLedgerEntry(backend.database.db, entry)).applied).toBe(false);
    expect(await tokensOf(client)).toBe(25);
    expect(await ledgerOf(id)).toEqual(['grant 5', 'signup 20']);
  });

  it('refuses a debit below zero and writes nothing; a debit to exactly zero goes through once', async () => {
    const { client, id } = await verifiedUser(backend, 20);
    const debit = (delta: number, reference: string) =>
      applyLedgerEntry(backend.database.db, { userId: id, delta, reason: 'grant', reference });

    await expect(debit(-21, `too-much:${id}`)).rejects.toThrow(InsufficientTokensError);
    expect(await tokensOf(client)).toBe(20);
    const refused = await backend.database.db
      .select()
      .from(ledger)
      .where(and(eq(ledger.reason, 'grant'), eq(ledger.reference, `too-much:${id}`)));
    expect(refused).toEqual([]);

    expect(await debit(-20, `all:${id}`)).toEqual({ applied: true, balance: 0 });
    // Repeated at a balance it no longer covers: already applied, not refused.
    expect(await debit(-20, `all:${id}`)).toEqual({ applied: false, balance: 0 });
    expect(await tokensOf(client)).toBe(0);
    expect(await ledgerOf(id)).toEqual(['grant -20', 'signup 20']);
  });

  it('charges a tool call nothing at a balance that does not cover it: 402, no job row, no ledger row', async () => {
    const { client, id } = await verifiedUser(backend, 1);
    const refused = await client.post<{ error: string; balance: number }>('/api/generate-image', {
      prompt: 'a small boat',
      numOutputs: 2,
    });
    expect(refused.status).toBe(402);
    expect(refused.body.balance).toBe(1);
    expect(await tokensOf(client)).toBe(1);
    expect(await ledgerOf(id)).toEqual(['grant -19', 'signup 20']);
    expect(await backend.database.db.select().from(jobs).where(eq(jobs.userId, id))).toEqual([]);
  });
});
