import { useState } from 'react';
import { AdminSection, AdminShell, Pager, ReadError } from './AdminShell';
import { auditTable } from './AuditTable';
import { ADMIN_READS, type AdminAuditPage as AuditPageData } from './admin-api';
import { DataTable } from './DataTable';
import { useAdminData } from './use-admin-data';

/** /admin/audit: every operator's actions (and `npm run admin`'s), newest first. */
export function AdminAuditPage() {
  const [page, setPage] = useState(1);
  const audit = useAdminData<AuditPageData>(ADMIN_READS.audit(page));
  return (
    <AdminShell title="Audit log">
      <h1 className="pp-admin__title" tabIndex={-1}>
        Audit log
      </h1>
      <AdminSection
        title="Actions"
        aside={audit.data ? <span className="pp-admin__muted pp-tabular">{audit.data.total} in all</span> : null}
      >
        {audit.error ? <ReadError error={audit.error} onRetry={audit.reload} /> : null}
        {audit.data ? (
          <>
            <DataTable {...auditTable({ withAccount: true })} rows={audit.data.items} />
            <Pager
              label="Audit log"
              page={audit.data.page}
              pageSize={audit.data.pageSize}
              total={audit.data.total}
              onPage={setPage}
            />
          </>
        ) : audit.error ? null : (
          <p role="status">Loading the audit log…</p>
        )}
      </AdminSection>
    </AdminShell>
  );
}
