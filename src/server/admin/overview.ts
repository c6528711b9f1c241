// The console's overview (issue 57): the last 24 hours and 30 days of sign-ups, tool calls,
// failures, refunds and sales, with their charts' buckets; the queue, workers and webhook
// deliveries now; and the alerts someone must act on. Read when an operator opens the page, never
// on a user's path: the windows are read from the tables as they are (no counters to keep).
import { type SQL, sql } from 'drizzle-orm';
import type { AdminAlertPayment, AdminOverview, AdminOverviewBucket, AdminOverviewWindow } from '../../contract/admin';
import type { TokenPackage } from '../../contract/packages';
import type { AppDb } from '../db/client';

type Rows = { rows: Record<string, unknown>[] };
const rowsOf = async (db: AppDb, query: SQL) => ((await db.execute(query)) as unknown as Rows).rows;
/** Counts and sums arrive as numbers (PGlite) or strings (node-postgres, for bigint). */
const num = (value: unknown) => Number(value ?? 0);

const HOUR = 3600;
const DAY = 24 * HOUR;

/** The metrics a chart's bucket counts, as (metric, time, amount) events. */
const bucketEvents = (since: string) => sql`
  select 'signUps' as metric, created_at as ts, 1 as amount from "user" where created_at >= ${since}::timestamptz
  union all select 'toolCalls', created_at, 1 from jobs where created_at >= ${since}::timestamptz
  union all select 'failures', finished_at, 1 from jobs where status = 'failed' and finished_at >= ${since}::timestamptz
  union all select 'tokensSold', created_at, delta from ledger where reason = 'purchase' and created_at >= ${since}::timestamptz
  union all select 'tokensSpent', created_at, -delta from ledger where reason = 'job' and created_at >= ${since}::timestamptz
  union all select 'revenueCents', completed_at, amount_cents from payments
    where status = 'paid' and completed_at >= ${since}::timestamptz`;

type BucketMetric = Exclude<keyof AdminOverviewBucket, 'start'>;
const BUCKET_METRICS: readonly BucketMetric[] = [
  'signUps',
  'toolCalls',
  'failures',
  'tokensSold',
  'tokensSpent',
  'revenueCents',
];

/** `count` buckets of `seconds` each, ending at `at`, oldest first. */
async function buckets(db: AppDb, at: Date, seconds: number, count: number): Promise<AdminOverviewBucket[]> {
  const since = new Date(at.getTime() - seconds * count * 1000).toISOString();
  const now = at.toISOString();
  const rows = await rowsOf(
    db,
    sql`select metric, floor(extract(epoch from ${now}::timestamptz - ts) / ${seconds})::int as age,
        sum(amount)::float8 as total
      from (${bucketEvents(since)}) events
      where ts <= ${now}::timestamptz group by metric, age`,
  );
  const result = Array.from({ length: count }, (_, i) => ({
    start: new Date(at.getTime() - (count - i) * seconds * 1000).toISOString(),
    ...Object.fromEntries(BUCKET_METRICS.map((metric) => [metric, 0])),
  })) as AdminOverviewBucket[];
  for (const row of rows) {
    const bucket = result[count - 1 - num(row.age)];
    if (bucket) bucket[row.metric as BucketMetric] += num(row.total);
  }
  return result;
}

const sumOf = (list: AdminOverviewBucket[], metric: BucketMetric) => list.reduce((sum, b) => sum + b[metric], 0);

/** A window's totals: those the chart counts from its buckets, the breakdowns read here. */
async function windowTotals(
  db: AppDb,
  since: string,
  chart: AdminOverviewBucket[],
  packages: readonly TokenPackage[],
): Promise<AdminOverviewWindow> {
  const [toolCalls, failures, refunds, revenue] = await Promise.all([
    rowsOf(
      db,
      sql`select tool, provider, count(*)::int as count from jobs where created_at >= ${since}::timestamptz
        group by tool, provider order by count desc, tool, provider`,
    ),
    rowsOf(
      db,
      sql`select coalesce(error, '') as reason, count(*)::int as count from jobs
        where status = 'failed' and finished_at >= ${since}::timestamptz
        group by error order by count desc, reason limit 10`,
    ),
    rowsOf(
      db,
      sql`select count(*)::int as count, coalesce(sum(delta), 0)::float8 as tokens from ledger
        where reason = 'refund' and created_at >= ${since}::timestamptz`,
    ),
    rowsOf(
      db,
      sql`select package_id, count(*)::int as payments, coalesce(sum(amount_cents), 0)::float8 as amount_cents
        from payments where status = 'paid' and completed_at >= ${since}::timestamptz
        group by package_id order by amount_cents desc, package_id`,
    ),
  ]);
  return {
    signUps: sumOf(chart, 'signUps'),
    toolCalls: toolCalls.map((r) => ({ tool: String(r.tool), provider: String(r.provider), count: num(r.count) })),
    failures: failures.map((r) => ({ reason: String(r.reason), count: num(r.count) })),
    refunds: { count: num(refunds[0]?.count), tokens: num(refunds[0]?.tokens) },
    tokensSold: sumOf(chart, 'tokensSold'),
    tokensSpent: sumOf(chart, 'tokensSpent'),
    revenue: revenue.map((r) => ({
      packageId: String(r.package_id),
      packageName: packages.find((p) => p.id === r.package_id)?.name ?? null,
      payments: num(r.payments),
      amountCents: num(r.amount_cents),
    })),
  };
}

const alertPayment = (r: Record<string, unknown>): AdminAlertPayment => ({
  sessionId: String(r.session_id),
  userId: String(r.user_id),
  amountCents: num(r.amount_cents),
  tokens: num(r.tokens),
  status: String(r.status),
  createdAt: new Date(r.created_at as string | Date).toISOString(),
});

export async function overview(
  db: AppDb,
  options: { packages: readonly TokenPackage[]; workerLeaseSeconds: number },
): Promise<AdminOverview> {
  const at = new Date();
  const since = (seconds: number) => new Date(at.getTime() - seconds * 1000).toISOString();
  const [hourly, daily, now, alerts] = await Promise.all([
    buckets(db, at, HOUR, 24),
    buckets(db, at, DAY, 30),
    rowsOf(
      db,
      sql`select
          (select count(*)::int from jobs where status = 'queued') as waiting,
          (select count(*)::int from jobs where status = 'running') as running,
          (select extract(epoch from now() - min(created_at))::float8 from jobs where status = 'queued') as oldest,
          (select count(*)::int from worker_leases
            where heartbeat_at > now() - make_interval(secs => ${options.workerLeaseSeconds})) as workers,
          (select count(*)::int from webhook_deliveries where status = 'pending' and last_error is not null) as retrying,
          (select count(*)::int from webhook_deliveries
            where status = 'failed' and created_at >= ${since(30 * DAY)}::timestamptz) as failed_deliveries`,
    ),
    rowsOf(
      db,
      // A paid payment is credited in the same transaction (billing/fulfilment.ts): one without its
      // ledger row is a fault to look into; a failed refund is the operator's to make (Stripe).
      sql`select session_id, user_id, amount_cents, tokens, status, created_at from payments p
        where (status = 'paid' and not exists
            (select 1 from ledger l where l.reason = 'purchase' and l.reference = p.session_id))
          or status = 'refund_failed'
        order by created_at`,
    ),
  ]);
  const [last24Hours, last30Days] = await Promise.all([
    windowTotals(db, since(DAY), hourly, options.packages),
    windowTotals(db, since(30 * DAY), daily, options.packages),
  ]);
  const current = now[0] ?? {};
  return {
    at: at.toISOString(),
    last24Hours,
    last30Days,
    hourly,
    daily,
    queue: {
      waiting: num(current.waiting),
      running: num(current.running),
      oldestWaitingSeconds: current.oldest == null ? null : Math.round(num(current.oldest)),
    },
    workersAlive: num(current.workers),
    webhookDeliveries: { retrying: num(current.retrying), failedLast30Days: num(current.failed_deliveries) },
    alerts: {
      paidNotCredited: alerts.filter((r) => r.status === 'paid').map(alertPayment),
      refundFailed: alerts.filter((r) => r.status === 'refund_failed').map(alertPayment),
    },
  };
}
