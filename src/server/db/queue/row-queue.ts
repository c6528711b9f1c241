// The one queue over rows (decisions 045 and 075): a table whose rows are work (tool jobs, account
// setups, webhook deliveries) is made a queue by naming its columns. A worker claims the first due
// row in the queue's order in one statement (`for update skip locked`: a row another worker is
// claiming is passed over, never taken twice), which counts the try (attempts + 1) and holds the row
// for it: moved out of its waiting state, or kept waiting but not due again before a hold runs out,
// and recorded as its worker's (a row whose worker's lease has lapsed is due again at once). A try
// that failed hands the row back after the backoff of its retry policy (retry-policies.ts), only
// while that try still holds it. No other code claims rows: a queue's own file composes these
// statements with its own columns and outcomes.
import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AppDb, SqlRows } from '../client';
import { workerLeases } from '../schema';
import type { RetryPolicy } from './retry-policies';

export type RowQueue = {
  table: PgTable;
  /** The primary key: one row, one piece of work. */
  key: PgColumn;
  /** Tries so far: each claim adds one; a row at its policy's maxAttempts is claimed no more. */
  attempts: PgColumn;
  /** Not claimed before this (null, where the column allows it: due now); a retry's backoff goes here. */
  dueAt: PgColumn;
  /** The order due rows are claimed in (ties broken by the later columns). */
  order: readonly PgColumn[];
  policy: RetryPolicy;
  /** The worker lease (worker_leases) of the process that claimed the row, cleared when it is handed back. */
  workerId?: PgColumn;
  /**
   * A table with a status: rows in `waiting` are claimed. `claimed`: the status a claim moves the row
   * to (it is then no longer waiting; its own sweep hands it back); without it the row stays waiting,
   * held by `holdSeconds`.
   */
  status?: { column: PgColumn; waiting: string; claimed?: string };
  /**
   * A claimed row that stays waiting is due again this long after its claim (the try hung, or its
   * worker died); null: the claim clears `dueAt` and moves the row to `status.claimed`.
   */
  holdSeconds: number | null;
  /** Other columns a claim sets, e.g. when the run started. */
  onClaim?: readonly (readonly [PgColumn, SQL])[];
};

/** The try a worker holds: its row's key and the attempt its claim counted. */
export type Claim = { key: string; attempt: number };

/** A column of the row being looked at, as `q.<column>` (the alias of the claim's choice of row). */
export type RowRef = (column: PgColumn) => SQL;

const name = (column: PgColumn) => sql.identifier(column.name);
const inTable = (queue: RowQueue, column: PgColumn) => sql`${queue.table}.${name(column)}`;
const aliased =
  (alias: string): RowRef =>
  (column) =>
    sql`${sql.identifier(alias)}.${name(column)}`;
/**
 * A status as a literal where a row is chosen: a partial index of waiting rows (`where status =
 * 'queued'`) serves a generic plan only when the statement names the same value. Statuses are the
 * code's own words, never input.
 */
function statusLiteral(value: string): SQL {
  if (!/^[a-z_]+$/.test(value)) throw new Error(`not a status: ${value}`);
  return sql.raw(`'${value}'`);
}
const assignments = (pairs: readonly (readonly [PgColumn, SQL])[]) =>
  sql.join(
    pairs.map(([column, value]) => sql`${name(column)} = ${value}`),
    sql`, `,
  );

/** Whether the worker lease `workerId` (an SQL value) has lapsed, or is gone: its claims are anyone's again. */
export const leaseLapsed = (workerId: SQL, leaseSeconds: number): SQL =>
  sql`not exists (select 1 from ${workerLeases} l where l.${name(workerLeases.id)} = ${workerId}
    and l.${name(workerLeases.heartbeatAt)} > now() - make_interval(secs => ${leaseSeconds}))`;

/**
 * Whether the row `row` waits, is due and has tries left. `leaseSeconds`: a row held by a worker
 * whose lease has lapsed is due too (a queue whose claimed rows stay waiting).
 */
function claimable(queue: RowQueue, row: RowRef, leaseSeconds?: number): SQL {
  const waiting = queue.status ? sql`${row(queue.status.column)} = ${statusLiteral(queue.status.waiting)} and ` : sql``;
  const due = sql`${queue.dueAt.notNull ? sql`` : sql`${row(queue.dueAt)} is null or `}${row(queue.dueAt)} <= now()`;
  const orLapsed =
    queue.workerId && leaseSeconds !== undefined
      ? sql` or (${row(queue.workerId)} is not null and ${leaseLapsed(row(queue.workerId), leaseSeconds)})`
      : sql``;
  return sql`${waiting}(${due}${orLapsed}) and ${row(queue.attempts)} < ${queue.policy.maxAttempts}`;
}

/**
 * Whether any row is claimable (`except`: one row's key, an SQL value, left out: a statement's
 * snapshot still shows the row it claimed as waiting).
 */
export function anyDue(queue: RowQueue, except: SQL = sql`null`): SQL {
  const row = aliased('w');
  return sql`exists (select 1 from ${queue.table} w where ${claimable(queue, row)} and ${row(queue.key)} is distinct from ${except})`;
}

export type ClaimOptions = {
  /** The claiming worker's lease, recorded on the row (a queue with a workerId column). */
  workerId?: string | null;
  /** Rows held by a worker whose lease is older than this are due again (omitted: never by the claim). */
  leaseSeconds?: number;
  /** A join beside the row (`q`), e.g. to the table that says whether it may run yet. */
  join?: (row: RowRef) => SQL;
  /** More conditions on the row to claim. */
  where?: (row: RowRef) => SQL;
};

/**
 * The CTEs that claim the first claimable row in one statement: `next_in_queue` (its key, read in
 * the queue's order, `for update skip locked`) and `claimed` (the row as the claim left it:
 * `returning` every column). For a statement that does more than claim (the tool queue's finish takes
 * the next job in the same round trip); claimNext runs them alone. The claim binds the waiting status
 * as a parameter: with the literal, a plan made while the queue was empty read the claimed row by
 * scanning a partial index of waiting rows instead of the primary key.
 */
export function claimCtes(queue: RowQueue, options: ClaimOptions = {}): SQL {
  const q = aliased('q');
  const join = options.join ? sql` ${options.join(q)}` : sql``;
  const where = options.where ? sql` and ${options.where(q)}` : sql``;
  const order = sql.join(
    queue.order.map((column) => q(column)),
    sql`, `,
  );
  const sets: (readonly [PgColumn, SQL])[] = [[queue.attempts, sql`${name(queue.attempts)} + 1`]];
  if (queue.workerId) sets.push([queue.workerId, sql`${options.workerId ?? null}::uuid`]);
  sets.push([
    queue.dueAt,
    queue.holdSeconds === null ? sql`null` : sql`now() + make_interval(secs => ${queue.holdSeconds})`,
  ]);
  if (queue.status?.claimed) sets.push([queue.status.column, sql`${queue.status.claimed}`]);
  sets.push(...(queue.onClaim ?? []));
  const stillWaiting = queue.status
    ? sql` and ${inTable(queue, queue.status.column)} = ${queue.status.waiting}`
    : sql``;
  return sql`next_in_queue as (
      select ${q(queue.key)} as picked from ${queue.table} q${join}
      where ${claimable(queue, q, options.leaseSeconds)}${where}
      order by ${order}
      limit 1
      for update of q skip locked),
    claimed as (
      update ${queue.table} set ${assignments(sets)}
      from next_in_queue
      where ${inTable(queue, queue.key)} = next_in_queue.picked${stillWaiting}
      returning ${queue.table}.*)`;
}

/**
 * Claims the next claimable row, in one statement; null when none is due. `before`: CTEs the
 * statement runs first; `select`: what it answers of `claimed` (default: the claim itself).
 */
export async function claimNext(
  db: AppDb,
  queue: RowQueue,
  options: ClaimOptions & { before?: SQL; select?: SQL } = {},
): Promise<(Claim & { row: Record<string, unknown> }) | null> {
  const before = options.before ? sql`${options.before}, ` : sql``;
  const select = options.select ?? sql`claimed.*`;
  const keyAndAttempt = sql`claimed.${name(queue.key)} as claim_key, claimed.${name(queue.attempts)} as claim_attempt`;
  const { rows } = (await db.execute(
    sql`with ${before}${claimCtes(queue, options)} select ${keyAndAttempt}, ${select} from claimed`,
  )) as unknown as SqlRows;
  const row = rows[0];
  return row ? { key: String(row.claim_key), attempt: Number(row.claim_attempt), row } : null;
}

/** The row is still held by `claim`: not claimed again since (nor finished, where a status says so). */
export function heldBy(queue: RowQueue, claim: Claim): SQL {
  const status = queue.status
    ? sql` and ${inTable(queue, queue.status.column)} = ${queue.status.claimed ?? queue.status.waiting}`
    : sql``;
  return sql`${inTable(queue, queue.key)} = ${claim.key} and ${inTable(queue, queue.attempts)} = ${claim.attempt}${status}`;
}

/** Whether a claim's try is its row's last. */
export const isLastAttempt = (policy: RetryPolicy, attempt: number) => attempt >= policy.maxAttempts;

/** Seconds the retry after try `attempt` waits, as SQL: the policy's base times its factor per earlier try, capped. */
export function backoffSeconds(policy: RetryPolicy, attempt: number): SQL {
  const grown = sql`${policy.baseSeconds}::float8 * power(${policy.factor}::float8, ${attempt}::int - 1)`;
  return sql`least(${policy.capSeconds}::float8, ${grown}${policy.jitter ? sql` * (1 + random())` : sql``})`;
}

/** When the retry after try `attempt` is due. */
export const backoffUntil = (policy: RetryPolicy, attempt: number): SQL =>
  sql`now() + make_interval(secs => ${backoffSeconds(policy, attempt)})`;

/**
 * Hands a claimed row back to the queue for its next try, only while `claim` still holds it: waiting
 * again, no worker's, due after the policy's backoff (or `now`). `set`: other columns to write (the
 * error); `where`: more conditions. Answers whether it did.
 */
export async function retryLater(
  db: AppDb,
  queue: RowQueue,
  claim: Claim,
  {
    due = 'backoff',
    policy = queue.policy,
    set = [],
    where,
  }: {
    due?: 'backoff' | 'now';
    /** The queue's policy with a setting's base (withBaseSeconds). */
    policy?: RetryPolicy;
    set?: readonly (readonly [PgColumn, SQL])[];
    where?: SQL;
  } = {},
): Promise<boolean> {
  const sets: (readonly [PgColumn, SQL])[] = [];
  if (queue.status) sets.push([queue.status.column, sql`${queue.status.waiting}`]);
  if (queue.workerId) sets.push([queue.workerId, sql`null`]);
  const now = queue.dueAt.notNull ? sql`now()` : sql`null`;
  sets.push([queue.dueAt, due === 'now' ? now : backoffUntil(policy, claim.attempt)], ...set);
  const { rows } = (await db.execute(sql`
    update ${queue.table} set ${assignments(sets)}
    where ${heldBy(queue, claim)}${where ? sql` and ${where}` : sql``}
    returning 1 as one`)) as unknown as SqlRows;
  return rows.length > 0;
}
