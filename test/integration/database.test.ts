import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../../src/server/db/client';
import { ensureInstance } from '../../src/server/db/instance';
import { appInstance, jobs } from '../../src/server/db/schema';
import { activeJobsOf } from '../../src/server/jobs/queue/fair-queue';
import {
  finishStatement,
  heldJobsQuery,
  medianRunQuery,
  takeStatement,
} from '../../src/server/jobs/queue/jobs-repository';
import { jobPageQuery } from '../../src/server/jobs/views/job-pages';
import { createTestDatabase, type TestDatabase } from '../support/test-backend';

describe('database', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.drop());

  it('applies migrations once: running them again changes nothing', async () => {
    const before = await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
    await migrateDatabase(database);
    const after = await database.executeSql('select count(*)::int as n from drizzle.__drizzle_migrations');
    expect(after.rows).toEqual(before.rows);
    expect(Number(before.rows[0]?.n)).toBeGreaterThan(0);
  });

  it('keeps one installation identity however often it is asked for', async () => {
    const first = await ensureInstance(database.db);
    const second = await ensureInstance(database.db);
    expect(second).toEqual(first);
    expect(first.instanceId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a second installation row', async () => {
    await expect(database.db.insert(appInstance).values({ singleton: false })).rejects.toThrow();
    const rows = await database.db.select().from(appInstance);
    expect(rows).toHaveLength(1);
  });

  it('finds a job by webhook reference, Idempotency-Key, share link or batch through indexes that hold only set values', async () => {
    const lookups = [
      sql`select id from ${jobs} where ${jobs.providerRef} = ${'prediction-1'}`,
      sql`select id from ${jobs} where ${jobs.userId} = ${'user-1'} and ${jobs.idempotencyKey} = ${'key-1'}`,
      sql`select id from ${jobs} where ${jobs.shareToken} = ${'token-1'}`,
      sql`select id from ${jobs} where ${jobs.batchId} = ${'00000000-0000-4000-8000-000000000001'} order by ${jobs.batchItem}`,
    ];
    const plans = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`); // the plan the index allows, whatever the table's size
      const found: string[] = [];
      for (const lookup of lookups) {
        const { rows } = (await tx.execute(sql`explain ${lookup}`)) as unknown as { rows: Record<string, string>[] };
        found.push(rows.map((row) => row['QUERY PLAN']).join(' '));
      }
      return found;
    });
    expect(plans[0]).toMatch(/Index Scan using jobs_provider_ref_idx/);
    expect(plans[1]).toMatch(/Index Scan using jobs_user_idempotency_key_unique/);
    expect(plans[2]).toMatch(/Index Scan using jobs_share_token_unique/);
    expect(plans[3]).toMatch(/Index Scan using jobs_batch_item_unique/);
    expect(plans[3]).not.toMatch(/Sort/);
    // Partial: a job without them (nearly every one) has no entry to write in any of them.
    const { rows } = await database.executeSql(
      `select indexrelid::regclass::text as name from pg_index where indrelid = 'jobs'::regclass and indpred is not null order by 1`,
    );
    expect(rows.map((row) => row.name)).toEqual([
      'jobs_batch_item_unique',
      'jobs_parent_idx',
      'jobs_provider_ref_idx',
      'jobs_queue_order_idx',
      'jobs_share_token_unique',
      'jobs_started_round_idx',
      'jobs_succeeded_idx',
      'jobs_user_active_idx',
      'jobs_user_idempotency_key_unique',
    ]);
  });

  it('takes the next waiting tool job by reading the first entry of an index of waiting jobs, with no sort', async () => {
    // The take (jobs/queue/jobs-repository.ts takeStatement, the row queue's claim), in the fair queue's
    // order, in the plan a named statement keeps for any values (a generic plan): the partial index
    // serves it only if the statement names its 'queued' as a literal.
    const statement = new PgDialect().sqlToQuery(takeStatement('00000000-0000-4000-8000-000000000001'));
    const literal = (value: unknown) => (typeof value === 'number' ? String(value) : `'${String(value)}'`);
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`prepare take_plan as ${statement.sql}`));
      const { rows } = (await tx.execute(
        sql.raw(`explain execute take_plan(${statement.params.map(literal).join(', ')})`),
      )) as unknown as { rows: Record<string, string>[] };
      await tx.execute(sql`deallocate take_plan`);
      return rows.map((row) => row['QUERY PLAN']).join(' ');
    });
    expect(plan).toMatch(/Index Scan using jobs_queue_order_idx on jobs q/);
    expect(plan).not.toMatch(/Sort/);
  });

  it("reads a page of My Creations from the user's newest jobs through an index, with no sort", async () => {
    // However many creations a user has, a page reads its own rows and one more (creations-repository.ts).
    await database.executeSql(`
      with u as (insert into "user" (id, name, email) values ('long-history', 'L', 'long-history@example.com') returning id)
      insert into jobs (user_id, tool, cost, charged, input, provider, request_hash, status, created_at)
        select id, 'colorizer', 1, 1, '{}'::jsonb, 'demo', 'h', 'succeeded', now() - make_interval(secs => i)
        from u, generate_series(1, 2000) as i`);
    await database.executeSql('analyze jobs');
    const cursor = { createdAtUs: BigInt(Date.now() - 100_000) * 1000n, id: '00000000-0000-4000-8000-000000000000' };
    for (const options of [
      { tool: null, cursor: null, limit: 21 },
      { tool: null, cursor, limit: 21 },
    ]) {
      const query = jobPageQuery(database.db, 'long-history', options).toSQL();
      const { rows } = await database.executeSql(
        `explain (analyze, costs off, timing off, summary off) ${query.sql}`,
        query.params,
      );
      const plan = rows.map((row) => row['QUERY PLAN']).join(' ');
      expect(plan).toMatch(/Index Scan Backward using jobs_user_created_idx/);
      expect(plan).not.toMatch(/Sort|Rows Removed by Filter/);
    }
    await database.executeSql(`delete from "user" where id = 'long-history'`);
  });

  it("counts a user's jobs in progress and finds a tool's latest good runs without reading the rest", async () => {
    // Every charge counts the user's jobs in progress (the cap, jobs/request/charge.ts); a waiting user is
    // told the median of a tool's last 20 good runs (jobs/queue/jobs-repository.ts medianRunQuery). A long
    // history of finished jobs must not be read for either.
    await database.executeSql(`
      with u as (insert into "user" (id, name, email) values ('many-jobs', 'M', 'many-jobs@example.com') returning id),
      finished as (insert into jobs (user_id, tool, cost, charged, input, provider, request_hash, status, started_at, finished_at)
        select id, (array['colorizer', 'image-upscaler'])[1 + i % 2], 1, 1, '{}'::jsonb, 'replicate', 'h', 'succeeded',
          now() - make_interval(secs => i + 3), now() - make_interval(secs => i)
        from u, generate_series(1, 2000) as i),
      waiting as (insert into jobs (user_id, tool, cost, charged, input, provider, request_hash)
        select id, 'colorizer', 1, 1, '{}'::jsonb, 'replicate', 'h' from u)
      select 1`);
    await database.executeSql('analyze jobs');
    const planOf = async (query: { sql: string; params: unknown[] }) => {
      const { rows } = await database.executeSql(
        `explain (analyze, costs off, timing off, summary off) ${query.sql}`,
        query.params,
      );
      return rows.map((row) => row['QUERY PLAN']).join(' ');
    };
    const countPlan = await planOf(new PgDialect().sqlToQuery(sql`select ${activeJobsOf('many-jobs')} as active`));
    expect(countPlan).toMatch(/Scan using jobs_user_active_idx/);
    expect(countPlan).not.toMatch(/Rows Removed by Filter|Seq Scan/);

    const medianPlan = await planOf(medianRunQuery(database.db, 'colorizer', 'replicate', 20).toSQL());
    expect(medianPlan).toMatch(/Index Scan Backward using jobs_succeeded_idx/);
    expect(medianPlan).not.toMatch(/Sort|Rows Removed by Filter|Seq Scan/);
    // The local engine's runs timed from when each got its model: the run before it, by the same index.
    const fromModelPlan = await planOf(medianRunQuery(database.db, 'colorizer', 'replicate', 20, true).toSQL());
    expect(fromModelPlan).toMatch(/Index Scan Backward using jobs_succeeded_idx/);
    expect(fromModelPlan).not.toMatch(/Seq Scan/);

    // A waiting page's estimate reads the jobs workers hold now (job-progress.ts), not the history.
    await database.executeSql(
      `update jobs set status = 'running', started_at = now() where user_id = 'many-jobs' and status = 'queued'`,
    );
    await database.executeSql('analyze jobs');
    const heldPlan = await planOf(new PgDialect().sqlToQuery(heldJobsQuery('replicate', true)));
    expect(heldPlan).toMatch(/Scan using jobs_user_active_idx on jobs held/);
    expect(heldPlan).toMatch(
      /Index Scan using jobs_succeeded_idx on jobs before|Bitmap Index Scan on jobs_succeeded_idx/,
    );
    expect(heldPlan).not.toMatch(/Seq Scan/);
    await database.executeSql(`delete from "user" where id = 'many-jobs'`);
  });

  it('finishes a job and claims the next by their primary key, in the plan kept for every later finish', async () => {
    // A named statement is planned once for any values (a generic plan) when the tables are small;
    // the finish must not choose to scan a partial index that grows with every job ever run.
    const statement = new PgDialect().sqlToQuery(
      finishStatement(
        { id: '00000000-0000-4000-8000-000000000001' },
        { result: { files: [] }, provider: 'demo', outputs: [] },
        { run: { attempt: 1 }, takeNextFor: { workerId: null } },
      ),
    );
    const literal = (value: unknown) =>
      value === null ? 'null' : typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;
    const plan = await database.db.transaction(async (tx) => {
      await tx.execute(sql`set local plan_cache_mode = force_generic_plan`);
      await tx.execute(sql.raw(`prepare finish_plan as ${statement.sql}`));
      const { rows } = (await tx.execute(
        sql.raw(`explain execute finish_plan(${statement.params.map(literal).join(', ')})`),
      )) as unknown as { rows: Record<string, string>[] };
      await tx.execute(sql`deallocate finish_plan`);
      return rows.map((row) => row['QUERY PLAN']).join(' ');
    });
    // Both updates (the finished job, the claimed one) read jobs_pkey; only the take's choice of
    // row reads the index of waiting jobs.
    expect(plan.match(/Update on jobs/g)).toHaveLength(2);
    expect(plan.match(/Index (Only )?Scan using jobs_pkey on jobs/g)).toHaveLength(2);
  });

  it('finds the round being served without reading past the waiting jobs', async () => {
    // jobs/request/charge.ts queuePlaceCtes, on every charge: the highest round of a started job. Waiting
    // jobs sit in the highest rounds; an index of every job would be read backwards through all of them.
    const { rows } = await database.executeSql(`
      with u as (insert into "user" (id, name, email) values ('served-round', 'S', 'served-round@example.com') returning id),
      started as (insert into jobs (user_id, tool, cost, charged, input, provider, request_hash, queue_round, status)
        select id, 'text-to-pic', 1, 1, '{}'::jsonb, 'demo', 'h', 3, 'succeeded' from u),
      waiting as (insert into jobs (user_id, tool, cost, charged, input, provider, request_hash, queue_round)
        select id, 'text-to-pic', 1, 1, '{}'::jsonb, 'demo', 'h', 4 + i / 100 from u, generate_series(1, 2000) as i)
      select 1`);
    expect(rows).toHaveLength(1);
    await database.executeSql('analyze jobs');
    const { rows: plan } = await database.executeSql(
      `explain (analyze, costs off, timing off, summary off) select (select max(queue_round) from jobs where status <> 'queued') as serving`,
    );
    const text = plan.map((row) => row['QUERY PLAN']).join(' ');
    // Whether it reads the index backwards or aggregates it, only started jobs are in it.
    expect(text).toMatch(/Scan( Backward)? using jobs_started_round_idx/);
    expect(text).not.toMatch(/Rows Removed by Filter|Seq Scan/);
    const { rows: served } = await database.executeSql(
      `select max(queue_round) as round from jobs where status <> 'queued'`,
    );
    expect(Number(served[0]?.round)).toBe(3);
    await database.executeSql(`delete from "user" where id = 'served-round'`);
  });
});
