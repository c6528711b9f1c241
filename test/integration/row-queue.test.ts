// The one row queue (src/server/db/queue/, decision 075) that tool jobs, account setups and webhook
// deliveries are claimed, counted, held and retried by, on a table of its own: each retry policy's
// backoff, a try counted per claim and none past the last, a row never given to two claimers at
// once, and a held row claimed again once its worker's lease lapses or its hold runs out.
import { randomUUID } from 'node:crypto';
import { eq, type SQL, sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import type { SqlRows } from '../../src/server/db/client';
import { RETRY_POLICIES, type RetryPolicy, withBaseSeconds } from '../../src/server/db/queue/retry-policies';
import { anyDue, backoffUntil, claimNext, type RowQueue, retryLater } from '../../src/server/db/queue/row-queue';
import { workerLeases } from '../../src/server/db/schema';
import { createTestDatabase, type TestDatabase } from '../support/test-backend';

const items = pgTable('queue_test_items', {
  id: text('id').primaryKey(),
  status: text('status').notNull(),
  attempts: integer('attempts').notNull().default(0),
  dueAt: timestamp('due_at', { withTimezone: true }),
  workerId: uuid('worker_id'),
  startedAt: timestamp('started_at', { withTimezone: true }),
  lastError: text('last_error'),
  position: integer('position').notNull(),
});

const threeTries: RetryPolicy = { maxAttempts: 3, baseSeconds: 5, factor: 2, jitter: false, capSeconds: 60 };

/** Rows that stay `waiting` while claimed, held by their worker's lease and a 60 s hold (as account setups are). */
const heldInPlace: RowQueue = {
  table: items,
  key: items.id,
  attempts: items.attempts,
  dueAt: items.dueAt,
  order: [items.position],
  policy: threeTries,
  workerId: items.workerId,
  status: { column: items.status, waiting: 'waiting' },
  holdSeconds: 60,
};

/** Rows that a claim moves to `running` (as tool jobs are). */
const movedOnClaim: RowQueue = {
  ...heldInPlace,
  status: { column: items.status, waiting: 'queued', claimed: 'running' },
  holdSeconds: null,
  onClaim: [[items.startedAt, sql`now()`]],
};

describe('the row queue', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await database.executeSql(`create table queue_test_items (
      id text primary key, status text not null, attempts int not null default 0, due_at timestamptz,
      worker_id uuid, started_at timestamptz, last_error text, position int not null)`);
  });
  afterAll(() => database.drop());
  beforeEach(async () => {
    await database.executeSql('delete from queue_test_items');
  });

  const add = (status: string, ...ids: string[]) =>
    database.db.insert(items).values(ids.map((id, position) => ({ id, status, position })));
  const rowOf = async (id: string) => (await database.db.select().from(items).where(eq(items.id, id)))[0];
  const scalar = async (query: SQL) =>
    ((await database.db.execute(sql`select ${query} as value`)) as unknown as SqlRows).rows[0]?.value;
  /** Seconds from now until the retry after try `attempt` is due. */
  const delayOf = async (policy: RetryPolicy, attempt: number) =>
    Number(await scalar(sql`extract(epoch from ${backoffUntil(policy, attempt)} - now())::float8`));

  it("waits each policy's backoff before a retry: tool jobs and setups doubling at random, webhooks tripling", async () => {
    const { toolJob, accountSetup, webhookDelivery } = RETRY_POLICIES;
    for (const [policy, attempt, least, most] of [
      [toolJob, 1, 5, 10],
      [toolJob, 2, 10, 20],
      [accountSetup, 1, 5, 10],
      [accountSetup, 10, 2560, 5120],
    ] as const) {
      const delay = await delayOf(policy, attempt);
      expect(delay, `${attempt}`).toBeGreaterThanOrEqual(least);
      expect(delay, `${attempt}`).toBeLessThanOrEqual(most);
    }
    const webhookDelays = [];
    for (let attempt = 1; attempt < webhookDelivery.maxAttempts; attempt++)
      webhookDelays.push(await delayOf(webhookDelivery, attempt));
    expect(webhookDelays).toEqual([10, 30, 90, 270, 810, 2430, 7290, 21_870, 65_610]);
    // A setting's base is used, up to the cap: no webhook waits more than a day, no tool job an hour.
    expect(await delayOf(withBaseSeconds(webhookDelivery, 0.2), 2)).toBeCloseTo(0.6);
    expect(await delayOf(withBaseSeconds(webhookDelivery, 3600), 9)).toBe(24 * 3600);
    expect(await delayOf(withBaseSeconds(toolJob, 3600), 2)).toBe(3600);
  });

  it('counts a try with each claim, in the queue’s order, and claims a row no more after its last', async () => {
    await add('waiting', 'first', 'second');
    const worker = randomUUID();
    expect(await claimNext(database.db, heldInPlace, { workerId: worker })).toMatchObject({ key: 'first', attempt: 1 });
    expect(await claimNext(database.db, heldInPlace, { workerId: worker })).toMatchObject({
      key: 'second',
      attempt: 1,
    });
    // Both held: nothing to claim.
    expect(await claimNext(database.db, heldInPlace, { workerId: worker })).toBeNull();

    const failed = { set: [[items.lastError, sql`${'it broke'}`]] as const };
    expect(await retryLater(database.db, heldInPlace, { key: 'first', attempt: 1 }, failed)).toBe(true);
    // Waiting out its backoff (5 s): not yet due.
    expect(await rowOf('first')).toMatchObject({ attempts: 1, workerId: null, lastError: 'it broke' });
    expect(await claimNext(database.db, heldInPlace, { workerId: worker })).toBeNull();
    await database.db
      .update(items)
      .set({ dueAt: new Date(Date.now() - 1_000) })
      .where(eq(items.id, 'first'));
    expect(await claimNext(database.db, heldInPlace, { workerId: worker })).toMatchObject({ key: 'first', attempt: 2 });
    // The first try's claim holds it no more; the second's does.
    expect(await retryLater(database.db, heldInPlace, { key: 'first', attempt: 1 }, { due: 'now' })).toBe(false);
    expect(await retryLater(database.db, heldInPlace, { key: 'first', attempt: 2 }, { due: 'now' })).toBe(true);
    expect(await claimNext(database.db, heldInPlace, { workerId: worker })).toMatchObject({ key: 'first', attempt: 3 });
    // Its last try failed: it stays, due no more.
    expect(await retryLater(database.db, heldInPlace, { key: 'first', attempt: 3 }, { due: 'now' })).toBe(true);
    expect(await rowOf('first')).toMatchObject({ status: 'waiting', attempts: 3 });
    expect(await scalar(anyDue(heldInPlace))).toBe(false);
    expect(await claimNext(database.db, heldInPlace, { workerId: worker })).toBeNull();
  });

  it('gives each row to one claimer when many claim at once', async () => {
    for (let round = 0; round < 5; round++) {
      const ids = [0, 1, 2, 3].map((i) => `round-${round}-${i}`);
      await add('queued', ...ids);
      const claims = await Promise.all(
        Array.from({ length: 8 }, () => claimNext(database.db, movedOnClaim, { workerId: randomUUID() })),
      );
      const taken = claims.filter((claim) => claim !== null);
      expect(taken.map((claim) => claim.key).sort()).toEqual(ids);
      expect(taken.every((claim) => claim.attempt === 1)).toBe(true);
    }
  });

  // Two connections at once: PostgreSQL only (PGlite is one connection, so nothing is ever mid-claim).
  it.runIf(inject('postgresTemplate') !== null)(
    'passes over a row another worker is in the middle of claiming rather than waiting for it',
    async () => {
      await add('queued', 'locked', 'free');
      let claim: ReturnType<typeof claimNext> | undefined;
      await database.db.transaction(async (tx) => {
        // Another worker's claim of the first row, not yet committed.
        await tx.execute(sql`select 1 from ${items} where ${items.id} = ${'locked'} for update`);
        claim = claimNext(database.db, movedOnClaim, { workerId: randomUUID() });
        // A claim that waited for this lock would wait forever: the lock goes after 10 s at most,
        // and such a claim then takes the first row, failing the test instead of hanging it.
        await Promise.race([claim, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      });
      expect(await claim).toMatchObject({ key: 'free', attempt: 1 });
    },
  );

  it('moves a claimed row out of the queue and back after its backoff, only while its claim holds it', async () => {
    await add('queued', 'job');
    const worker = randomUUID();
    expect(await scalar(anyDue(movedOnClaim))).toBe(true);
    expect(await claimNext(database.db, movedOnClaim, { workerId: worker })).toMatchObject({ key: 'job', attempt: 1 });
    const running = await rowOf('job');
    expect(running).toMatchObject({ status: 'running', attempts: 1, workerId: worker, dueAt: null });
    expect(running?.startedAt).toBeInstanceOf(Date);
    expect(await scalar(anyDue(movedOnClaim))).toBe(false);

    expect(await retryLater(database.db, movedOnClaim, { key: 'job', attempt: 2 })).toBe(false);
    expect(await retryLater(database.db, movedOnClaim, { key: 'job', attempt: 1 })).toBe(true);
    const waiting = await rowOf('job');
    expect(waiting).toMatchObject({ status: 'queued', attempts: 1, workerId: null });
    // threeTries: 5 s after the first try.
    expect((waiting?.dueAt?.getTime() ?? 0) - Date.now()).toBeGreaterThan(3_000);
    expect(await scalar(anyDue(movedOnClaim))).toBe(false);
    expect(await retryLater(database.db, movedOnClaim, { key: 'job', attempt: 1 })).toBe(false);

    await database.db.update(items).set({ dueAt: new Date(Date.now() - 1_000) });
    expect(await scalar(anyDue(movedOnClaim))).toBe(true);
    expect(await claimNext(database.db, movedOnClaim, { workerId: worker })).toMatchObject({ attempt: 2 });
  });

  it('claims a held row again once its worker’s lease lapses or its hold runs out', async () => {
    await add('waiting', 'setup');
    const [a, b] = [randomUUID(), randomUUID()];
    await database.db.insert(workerLeases).values([
      { id: a, host: 'a', pid: 1 },
      { id: b, host: 'b', pid: 2 },
    ]);
    const claim = (workerId: string) => claimNext(database.db, heldInPlace, { workerId, leaseSeconds: 30 });
    expect(await claim(a)).toMatchObject({ key: 'setup', attempt: 1 });
    expect(await claim(b)).toBeNull(); // held by a live worker
    await database.db
      .update(workerLeases)
      .set({ heartbeatAt: new Date(Date.now() - 60_000) })
      .where(eq(workerLeases.id, a));
    expect(await claim(b)).toMatchObject({ key: 'setup', attempt: 2 });
    expect(await rowOf('setup')).toMatchObject({ workerId: b });
    // The lapsed worker's try, should it end after all, no longer holds the row.
    expect(await retryLater(database.db, heldInPlace, { key: 'setup', attempt: 1 })).toBe(false);
    // b lives on but its try hangs past the hold: due again.
    expect(await claim(a)).toBeNull();
    await database.db.update(items).set({ dueAt: new Date(Date.now() - 1_000) });
    expect(await claim(a)).toMatchObject({ key: 'setup', attempt: 3 });
    await database.db.delete(workerLeases);
  });
});
