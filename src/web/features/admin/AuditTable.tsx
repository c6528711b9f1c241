import type { AdminAuditEntry } from '../../../contract/admin';
import type { AdminAction } from '../../../contract/admin-rules';
import { Link } from '../../lib/router';
import { adminAccountPath } from './admin-links';
import { type Column, type TableSpec, timeColumn } from './DataTable';
import { formatState } from './format';

export const ACTION_LABELS: Record<AdminAction, string> = {
  tokens: 'Tokens',
  flags: 'Flags',
  refund: 'Refund',
  'verification-mail': 'Verification mail',
  'revoke-key': 'Key revoked',
  'sign-out': 'Signed out everywhere',
};

const WHO_AND_WHAT: Column<AdminAuditEntry>[] = [
  timeColumn('When', (entry) => entry.at),
  { header: 'Operator', layout: 'wrap', cell: (entry) => entry.operator.name },
  {
    header: 'Action',
    layout: 'wrap',
    cell: (entry) => (
      <>
        {ACTION_LABELS[entry.action] ?? entry.action}
        {entry.subject ? <span className="pp-admin__sub pp-admin__mono">{entry.subject}</span> : null}
      </>
    ),
  },
];

/** On whom: shown where entries of many accounts are listed (the audit log), not on one account's page. */
const ACCOUNT_COLUMN: Column<AdminAuditEntry> = {
  header: 'Account',
  layout: 'wrap',
  cell: (entry) =>
    entry.accountId ? (
      <Link to={adminAccountPath(entry.accountId)}>{entry.accountEmail ?? entry.accountId}</Link>
    ) : (
      <span className="pp-admin__muted">Deleted account</span>
    ),
};

const WHY_AND_CHANGE: Column<AdminAuditEntry>[] = [
  { header: 'Reason', layout: 'wrap', cell: (entry) => entry.reason },
  { header: 'Before', layout: 'wrap', cell: (entry) => formatState(entry.before) },
  { header: 'After', layout: 'wrap', cell: (entry) => formatState(entry.after) },
];

/** Audit entries, newest first: who did what (on whom, `withAccount`), why, and what it changed. */
export const auditTable = ({ withAccount }: { withAccount: boolean }): TableSpec<AdminAuditEntry> => ({
  label: 'Audit entries',
  rowKey: (entry) => entry.id,
  rowTestId: 'audit-entry',
  empty: 'No actions yet.',
  columns: withAccount ? [...WHO_AND_WHAT, ACCOUNT_COLUMN, ...WHY_AND_CHANGE] : [...WHO_AND_WHAT, ...WHY_AND_CHANGE],
});
