import { useState } from 'react';
import type { AdminAccountSummary, AdminAlertPayment, AdminOverviewWindow } from '../../../contract/admin';
import { Link, useSearchParams } from '../../lib/router';
import { FLAG_NAMES, type Flag } from './AccountActions';
import { AdminSection, AdminShell, ReadError } from './AdminShell';
import { ADMIN_READS, type AdminAccountList, type AdminOverview } from './admin-api';
import { adminAccountPath } from './admin-links';
import { type Series, type Share, ShareBars, TimeBars } from './Charts';
import { DataTable, type TableSpec, timeColumn } from './DataTable';
import { formatCount, formatMoney, formatTime, toolTitle } from './format';
import { useAdminData } from './use-admin-data';

const yesNo = (value: boolean | null) => (value === null ? '–' : value ? 'Yes' : 'No');

const FLAGS = Object.keys(FLAG_NAMES) as Flag[];

const FOUND_TABLE: TableSpec<AdminAccountSummary> = {
  label: 'Accounts found',
  rowKey: (account) => account.id,
  rowTestId: 'account-result',
  empty: 'No account has this email, id or Stripe customer.',
  columns: [
    { header: 'Email', cell: (account) => <Link to={adminAccountPath(account.id)}>{account.email}</Link> },
    {
      header: 'Balance',
      numeric: true,
      cell: (account) => (account.tokens === null ? '–' : formatCount(account.tokens)),
    },
    { header: 'Verified', cell: (account) => yesNo(account.emailVerified) },
    {
      header: 'Flags',
      cell: (account) =>
        FLAGS.filter((flag) => account[flag])
          .map((flag) => FLAG_NAMES[flag])
          .join(', ') || '–',
    },
    timeColumn('Created', (account) => account.createdAt),
  ],
};

/** The accounts a search found (a blank one: the newest sign-ups), each linking to its page. */
function SearchResults({ q }: { q: string }) {
  const found = useAdminData<AdminAccountList>(ADMIN_READS.search(q));
  const title = q ? `Accounts matching “${q}”` : 'Newest accounts';
  return (
    <AdminSection title={title}>
      {found.error ? <ReadError error={found.error} onRetry={found.reload} /> : null}
      {found.data === null ? (
        found.error ? null : (
          <p role="status">Searching…</p>
        )
      ) : (
        <DataTable {...FOUND_TABLE} rows={found.data.accounts} />
      )}
    </AdminSection>
  );
}

function Stat({ label, value, alert = false }: { label: string; value: string; alert?: boolean }) {
  return (
    <div className="pp-admin__stat" data-alert={alert || undefined}>
      <dt>{label}</dt>
      <dd className="pp-tabular">{value}</dd>
    </div>
  );
}

function WindowStats({ totals }: { totals: AdminOverviewWindow }) {
  const calls = totals.toolCalls.reduce((sum, row) => sum + row.count, 0);
  const failures = totals.failures.reduce((sum, row) => sum + row.count, 0);
  const revenue = totals.revenue.reduce((sum, row) => sum + row.amountCents, 0);
  return (
    <dl className="pp-admin__stats">
      <Stat label="Sign-ups" value={formatCount(totals.signUps)} />
      <Stat label="Tool calls" value={formatCount(calls)} />
      <Stat label="Failures" value={formatCount(failures)} />
      <Stat
        label="Refunds"
        value={`${formatCount(totals.refunds.count)} (${formatCount(totals.refunds.tokens)} tokens)`}
      />
      <Stat label="Tokens sold" value={formatCount(totals.tokensSold)} />
      <Stat label="Tokens spent" value={formatCount(totals.tokensSpent)} />
      <Stat label="Revenue" value={formatMoney(revenue)} />
    </dl>
  );
}

function AlertList({ title, payments }: { title: string; payments: readonly AdminAlertPayment[] }) {
  return (
    <div className="pp-admin__alert">
      <h3>
        {title}: <span className="pp-tabular">{payments.length}</span>
      </h3>
      {payments.length > 0 ? (
        <ul>
          {payments.map((payment) => (
            <li key={payment.sessionId}>
              <Link to={adminAccountPath(payment.userId)}>{formatTime(payment.createdAt)}</Link>:{' '}
              {formatMoney(payment.amountCents)} for {formatCount(payment.tokens)} tokens ({payment.status}),{' '}
              <span className="pp-admin__mono">{payment.sessionId}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

type Span = 'day' | 'month';

/** The window toggle: the last 24 hours or the last 30 days. */
function SpanToggle({ span, onSpan }: { span: Span; onSpan(span: Span): void }) {
  return (
    <fieldset className="pp-admin__toggle">
      <legend className="pp-visually-hidden">Period</legend>
      {(
        [
          ['day', 'Last 24 hours'],
          ['month', 'Last 30 days'],
        ] as const
      ).map(([value, label]) => (
        <button
          key={value}
          type="button"
          className="pp-admin__toggle-button"
          aria-pressed={span === value}
          onClick={() => onSpan(value)}
        >
          {label}
        </button>
      ))}
    </fieldset>
  );
}

/** The activity charts, one a series. */
const ACTIVITY_SERIES: Series[] = [
  { label: 'Sign-ups', value: (b) => b.signUps },
  { label: 'Tool calls', value: (b) => b.toolCalls },
  { label: 'Failures', value: (b) => b.failures },
  { label: 'Tokens sold', value: (b) => b.tokensSold },
  { label: 'Tokens spent', value: (b) => b.tokensSpent },
  { label: 'Revenue', value: (b) => b.revenueCents, format: formatMoney },
];

/** One of the overview's rankings under its heading, which names its table too. */
function Ranking({ title, unit, rows }: { title: string; unit: string; rows: readonly Share[] }) {
  return (
    <div>
      <h3 className="pp-admin__subtitle">{title}</h3>
      <ShareBars label={title} unit={unit} rows={rows} />
    </div>
  );
}

function Overview({ overview }: { overview: AdminOverview }) {
  const [span, setSpan] = useState<Span>('day');
  const totals = span === 'day' ? overview.last24Hours : overview.last30Days;
  const buckets = span === 'day' ? overview.hourly : overview.daily;
  const by = span === 'day' ? 'hour' : 'day';
  const { queue, alerts } = overview;
  const alertCount = alerts.paidNotCredited.length + alerts.refundFailed.length;
  return (
    <>
      <AdminSection title="Now">
        <dl className="pp-admin__stats">
          <Stat label="Jobs waiting" value={formatCount(queue.waiting)} />
          <Stat label="Jobs running" value={formatCount(queue.running)} />
          <Stat
            label="Oldest waiting"
            value={queue.oldestWaitingSeconds === null ? '–' : `${formatCount(queue.oldestWaitingSeconds)} s`}
          />
          <Stat label="Workers alive" value={formatCount(overview.workersAlive)} alert={overview.workersAlive === 0} />
          <Stat
            label="Webhooks retrying"
            value={formatCount(overview.webhookDeliveries.retrying)}
            alert={overview.webhookDeliveries.retrying > 0}
          />
          <Stat
            label="Webhooks failed (30 days)"
            value={formatCount(overview.webhookDeliveries.failedLast30Days)}
            alert={overview.webhookDeliveries.failedLast30Days > 0}
          />
        </dl>
        <p className="pp-admin__muted">As of {formatTime(overview.at)}.</p>
      </AdminSection>
      <AdminSection title={alertCount ? `Alerts (${alertCount})` : 'Alerts'}>
        {alertCount === 0 ? (
          <p className="pp-admin__empty">Every paid payment is credited; no refund of a payment has failed.</p>
        ) : (
          <>
            <AlertList title="Paid, tokens not credited" payments={alerts.paidNotCredited} />
            <AlertList title="Refunds that failed" payments={alerts.refundFailed} />
          </>
        )}
      </AdminSection>
      <AdminSection title="Activity" aside={<SpanToggle span={span} onSpan={setSpan} />}>
        <WindowStats totals={totals} />
        <div className="pp-admin__charts">
          {ACTIVITY_SERIES.map((series) => (
            <TimeBars key={series.label} buckets={buckets} by={by} series={series} />
          ))}
        </div>
        <div className="pp-admin__columns">
          <Ranking
            title="Tool calls by tool and provider"
            unit="Calls"
            rows={totals.toolCalls.map((row) => ({
              key: `${row.tool}/${row.provider}`,
              label: `${toolTitle(row.tool)} · ${row.provider}`,
              value: row.count,
            }))}
          />
          <Ranking
            title="Failures by reason"
            unit="Failures"
            rows={totals.failures.map((row) => ({ key: row.reason, label: row.reason, value: row.count }))}
          />
          <Ranking
            title="Revenue by package"
            unit="Revenue"
            rows={totals.revenue.map((row) => ({
              key: row.packageId,
              label: `${row.packageName ?? row.packageId} (${formatCount(row.payments)} paid)`,
              value: row.amountCents,
              display: formatMoney(row.amountCents),
            }))}
          />
        </div>
      </AdminSection>
    </>
  );
}

/** /admin: how the service is doing, and (with ?q=) the accounts a search found. */
export function AdminOverviewPage() {
  const [params] = useSearchParams();
  const q = params.get('q') ?? '';
  const overview = useAdminData<AdminOverview>(ADMIN_READS.overview);
  return (
    <AdminShell title="Overview">
      <h1 className="pp-admin__title" tabIndex={-1}>
        Support console
      </h1>
      <SearchResults q={q} />
      {overview.error ? <ReadError error={overview.error} onRetry={overview.reload} /> : null}
      {overview.data ? (
        <Overview overview={overview.data} />
      ) : overview.error ? null : (
        <p role="status">Loading the overview…</p>
      )}
    </AdminShell>
  );
}
