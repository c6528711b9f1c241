import { useState } from 'react';
import type {
  AdminAccountDetail,
  AdminAccountSummary,
  AdminApiKey,
  AdminJob,
  AdminLedgerRow,
  AdminPayment,
  AdminSession,
  AdminWebhookDelivery,
} from '../../../contract/admin';
import { FormMessage } from '../../components/FormMessage';
import { useParams } from '../../lib/router';
import { AccountActionForm, FLAG_NAMES, type Flag, type OpenAction } from './AccountActions';
import { AdminSection, AdminShell, Pager, ReadError } from './AdminShell';
import { auditTable } from './AuditTable';
import { ADMIN_READS } from './admin-api';
import { buttonColumn, DataTable, StatusPill, type TableSpec, timeColumn } from './DataTable';
import { formatCount, formatDelta, formatMoney, formatTime, toolTitle } from './format';
import { useAdminData } from './use-admin-data';

type Page<T> = { items: T[]; page: number; pageSize: number; total: number };

/** Where an action's form opens and its outcome is said: beside what it acts on. */
type Place = 'account' | 'jobs' | 'keys';

const placeOf = (action: OpenAction): Place =>
  action.kind === 'refund' ? 'jobs' : action.kind === 'revoke-key' ? 'keys' : 'account';

/** A list the account page shows page by page: the detail's first page, later ones read on demand. */
function usePaged<T>(first: Page<T>, pathFor: (page: number) => string) {
  const [page, setPage] = useState(1);
  const later = useAdminData<Page<T>>(page > 1 ? pathFor(page) : null);
  const shown = page === 1 ? first : (later.data ?? first);
  return { shown, error: page > 1 ? later.error : null, retry: later.reload, setPage };
}

/** One of the account's tables shown page by page, with the pages' buttons under it. */
function PagedTable<Row>({
  table,
  first,
  pathFor,
}: {
  table: TableSpec<Row>;
  first: Page<Row>;
  pathFor: (page: number) => string;
}) {
  const { shown, error, retry, setPage } = usePaged(first, pathFor);
  return (
    <>
      {error ? <ReadError error={error} onRetry={retry} /> : null}
      <DataTable {...table} rows={shown.items} />
      <Pager label={table.label} page={shown.page} pageSize={shown.pageSize} total={shown.total} onPage={setPage} />
    </>
  );
}

const yesNo = (value: boolean | null) => (value === null ? 'Not set up yet' : value ? 'Yes' : 'No');

function Summary({ account, ledgerMatchesBalance }: { account: AdminAccountSummary; ledgerMatchesBalance: boolean }) {
  const rows: [string, string][] = [
    ['Balance', account.tokens === null ? 'Not set up yet' : `${formatCount(account.tokens)} tokens`],
    ['Email verified', yesNo(account.emailVerified)],
    ['Dispute flag', yesNo(account.isDispute)],
    ['Fraud flag', yesNo(account.isFraudulent)],
    ['Created', formatTime(account.createdAt)],
    ['Stripe customer', account.stripeCustomerId ?? '–'],
    ['User id', account.id],
  ];
  return (
    <>
      <dl className="pp-admin__facts" data-testid="account-facts">
        {rows.map(([term, value]) => (
          <div key={term} data-flagged={value === 'Yes' && term.endsWith('flag') ? true : undefined}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {ledgerMatchesBalance ? null : (
        <p className="pp-admin__warning" role="note">
          The balance differs from the sum of the ledger: look at the ledger before changing anything.
        </p>
      )}
    </>
  );
}

const ENDED = new Set(['succeeded', 'failed']);

/** A job support may refund: it ended, was charged and has not been given it all back. */
const refundable = (job: AdminJob) => ENDED.has(job.status) && job.charged > job.refunded;

const jobsTable = (onRefund: (job: AdminJob) => void): TableSpec<AdminJob> => ({
  label: 'Jobs',
  rowKey: (job) => job.id,
  rowTestId: 'job-row',
  empty: 'No tool calls yet.',
  columns: [
    timeColumn('When', (job) => job.createdAt),
    { header: 'Tool', cell: (job) => toolTitle(job.tool) },
    { header: 'Provider', cell: (job) => job.provider },
    { header: 'Status', cell: (job) => <StatusPill status={job.status} /> },
    { header: 'Failure reason', layout: 'wrap', cell: (job) => job.error ?? '–' },
    { header: 'Charged', numeric: true, cell: (job) => formatCount(job.charged) },
    { header: 'Refunded', numeric: true, cell: (job) => formatCount(job.refunded) },
    buttonColumn({
      text: 'Refund',
      name: (job) => `Refund the ${toolTitle(job.tool)} job of ${formatTime(job.createdAt)}`,
      offered: refundable,
      onClick: onRefund,
    }),
  ],
});

const LEDGER_TABLE: TableSpec<AdminLedgerRow> = {
  label: 'Ledger',
  rowKey: (row) => row.id,
  rowTestId: 'ledger-row',
  empty: 'No balance changes yet.',
  columns: [
    timeColumn('When', (row) => row.createdAt),
    {
      header: 'Change',
      numeric: true,
      cell: (row) => formatDelta(row.delta),
      marks: (row) => ({ 'data-sign': row.delta < 0 ? 'minus' : 'plus' }),
    },
    { header: 'Reason', cell: (row) => row.reason },
    { header: 'Reference', layout: 'mono', cell: (row) => row.reference },
    { header: 'Note', layout: 'wrap', cell: (row) => row.note ?? '–' },
  ],
};

const PAYMENTS_TABLE: TableSpec<AdminPayment> = {
  label: 'Purchases and checkouts',
  rowKey: (payment) => payment.id,
  empty: 'No purchases or checkouts.',
  columns: [
    timeColumn('When', (payment) => payment.createdAt),
    { header: 'Package', cell: (payment) => payment.packageName ?? payment.packageId },
    { header: 'Tokens', numeric: true, cell: (payment) => formatCount(payment.tokens) },
    { header: 'Amount', numeric: true, cell: (payment) => formatMoney(payment.amountCents) },
    { header: 'Status', cell: (payment) => <StatusPill status={payment.status} /> },
    {
      header: 'Tokens credited',
      cell: (payment) => (payment.credited ? 'Yes' : 'No'),
      // Paid, tokens never credited: in red, as the overview's alert counts it.
      marks: (payment) => ({ 'data-alert': payment.status === 'paid' && !payment.credited ? true : undefined }),
    },
    { header: 'Checkout', layout: 'mono', cell: (payment) => `${payment.provider}: ${payment.sessionId}` },
  ],
};

const keysTable = (onRevoke: (key: AdminApiKey) => void): TableSpec<AdminApiKey> => ({
  label: 'API keys',
  rowKey: (key) => key.id,
  empty: 'No API keys.',
  columns: [
    { header: 'Name', cell: (key) => key.name },
    { header: 'Starts with', layout: 'mono', cell: (key) => `${key.prefix}…` },
    timeColumn('Created', (key) => key.createdAt),
    timeColumn('Last used', (key) => key.lastUsedAt),
    buttonColumn({ text: 'Revoke', name: (key) => `Revoke the API key ${key.name}`, onClick: onRevoke }),
  ],
});

const SESSIONS_TABLE: TableSpec<AdminSession> = {
  label: 'Sessions',
  rowKey: (session) => session.id,
  empty: 'Not signed in anywhere.',
  columns: [
    timeColumn('Signed in', (session) => session.createdAt),
    timeColumn('Expires', (session) => session.expiresAt),
    { header: 'Address', layout: 'mono', cell: (session) => session.ipAddress ?? '–' },
    { header: 'Browser', layout: 'wrap', cell: (session) => session.userAgent ?? '–' },
  ],
};

const WEBHOOKS_TABLE: TableSpec<AdminWebhookDelivery> = {
  label: 'Failed webhook deliveries',
  rowKey: (delivery) => delivery.jobId,
  empty: 'None failing.',
  columns: [
    { header: 'Job', layout: 'mono', cell: (delivery) => delivery.jobId },
    { header: 'Status', cell: (delivery) => (delivery.status === 'failed' ? 'Given up' : 'Retrying') },
    { header: 'Tries', numeric: true, cell: (delivery) => formatCount(delivery.attempts) },
    {
      header: 'Last answer',
      layout: 'wrap',
      cell: (delivery) => [delivery.lastStatus, delivery.lastError].filter((part) => part !== null).join(': ') || '–',
    },
    // One given up on has no next try.
    timeColumn('Next try', (delivery) => (delivery.status === 'failed' ? null : delivery.nextAttemptAt)),
  ],
};

type ActionButton = { text: string; action: OpenAction; needsProfile?: boolean };

/** The account-wide actions' buttons; each opens its form below them. */
function ActionButtons({ account, onOpen }: { account: AdminAccountSummary; onOpen(action: OpenAction): void }) {
  const hasProfile = account.tokens !== null;
  const flagButton = (flag: Flag): ActionButton => {
    const set = !account[flag];
    const name = FLAG_NAMES[flag];
    return {
      text: set ? `Set ${name} flag` : `Clear ${name} flag`,
      action: { kind: 'flag', flag, set },
      needsProfile: true,
    };
  };
  const buttons: ActionButton[] = [
    { text: 'Grant or deduct tokens', action: { kind: 'tokens' }, needsProfile: true },
    flagButton('isDispute'),
    flagButton('isFraudulent'),
    ...(account.emailVerified
      ? []
      : [{ text: 'Resend verification mail', action: { kind: 'verification-mail' } } as const]),
    { text: 'Sign out everywhere', action: { kind: 'sign-out' } },
  ];
  return (
    <div className="pp-admin__buttons">
      {buttons.map(({ text, action, needsProfile = false }) => (
        <button
          key={text}
          type="button"
          className="pp-button pp-button--secondary"
          disabled={needsProfile && !hasProfile}
          onClick={() => onOpen(action)}
        >
          {text}
        </button>
      ))}
    </div>
  );
}

/** /admin/accounts/:id: everything support looks at for one account, and what it can do to it. */
export function AdminAccountPage() {
  const { id = '' } = useParams();
  const detail = useAdminData<AdminAccountDetail>(ADMIN_READS.account(id));
  const [open, setOpen] = useState<OpenAction | null>(null);
  // Each opening makes a new form: a reason typed for one action must not stay for another.
  const [openings, setOpenings] = useState(0);
  const [outcome, setOutcome] = useState<{ place: Place; text: string } | null>(null);
  // After an action the lists start again from their newest page, where its rows are.
  const [changes, setChanges] = useState(0);
  const data = detail.data?.account.id === id ? detail.data : null;

  const openAction = (action: OpenAction) => {
    setOutcome(null);
    setOpen(action);
    setOpenings((n) => n + 1);
  };
  const form = (place: Place) =>
    data && open && placeOf(open) === place ? (
      <AccountActionForm
        key={openings}
        account={data.account}
        action={open}
        onCancel={() => setOpen(null)}
        onDone={(text) => {
          setOpen(null);
          setOutcome({ place, text });
          setChanges((n) => n + 1);
          detail.reload();
        }}
      />
    ) : null;
  const said = (place: Place) => (
    <FormMessage message={outcome?.place === place ? { tone: 'success', text: outcome.text } : null} />
  );

  const title = data ? data.account.email : 'Account';
  return (
    <AdminShell title={title}>
      <h1 className="pp-admin__title" tabIndex={-1}>
        {title}
      </h1>
      {detail.error ? <ReadError error={detail.error} onRetry={detail.reload} /> : null}
      {data ? (
        <>
          <p className="pp-admin__lead">{data.account.name}</p>
          <AdminSection title="Account">
            <Summary account={data.account} ledgerMatchesBalance={data.ledgerMatchesBalance} />
            <ActionButtons account={data.account} onOpen={openAction} />
            {form('account')}
            {said('account')}
          </AdminSection>
          <AdminSection title="Jobs">
            {form('jobs')}
            {said('jobs')}
            <PagedTable
              key={`jobs-${changes}`}
              table={jobsTable((job) => openAction({ kind: 'refund', job }))}
              first={data.jobs}
              pathFor={(page) => ADMIN_READS.jobs(id, page)}
            />
          </AdminSection>
          <AdminSection title="Ledger">
            <PagedTable
              key={`ledger-${changes}`}
              table={LEDGER_TABLE}
              first={data.ledger}
              pathFor={(page) => ADMIN_READS.ledger(id, page)}
            />
          </AdminSection>
          <AdminSection title="Purchases and checkouts">
            <DataTable {...PAYMENTS_TABLE} rows={data.payments} />
          </AdminSection>
          <AdminSection title="API keys">
            {form('keys')}
            {said('keys')}
            <DataTable {...keysTable((key) => openAction({ kind: 'revoke-key', key }))} rows={data.apiKeys} />
          </AdminSection>
          <AdminSection title="Sessions">
            <DataTable {...SESSIONS_TABLE} rows={data.sessions} />
          </AdminSection>
          <AdminSection title="Failed webhook deliveries">
            <DataTable {...WEBHOOKS_TABLE} rows={data.failedWebhookDeliveries} />
          </AdminSection>
          <AdminSection title="Audit entries">
            <PagedTable
              key={`audit-${changes}`}
              table={auditTable({ withAccount: false })}
              first={data.audit}
              pathFor={(page) => ADMIN_READS.audit(page, id)}
            />
          </AdminSection>
        </>
      ) : detail.error ? null : (
        <p role="status">Loading the account…</p>
      )}
    </AdminShell>
  );
}
