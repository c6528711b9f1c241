import './admin.css';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { Wordmark } from '../../components/Wordmark';
import { NavLink, useNavigate, useSearchParams } from '../../lib/router';
import { useDocumentTitle } from '../../lib/use-document-title';
import { ADMIN_READS, type AdminOperator } from './admin-api';
import { adminSearchPath } from './admin-links';
import { ADMIN_ROUTES } from './admin-routes';
import { useAdminData } from './use-admin-data';

/** Finds an account from any console page: the overview lists what matches. */
function AccountSearch() {
  const [params] = useSearchParams();
  const [q, setQ] = useState(params.get('q') ?? '');
  const navigate = useNavigate();
  const fieldId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    navigate(adminSearchPath(q));
  };
  return (
    <form className="pp-admin__search" aria-label="Find an account" onSubmit={submit}>
      <label className="pp-visually-hidden" htmlFor={fieldId}>
        Find an account
      </label>
      <input
        id={fieldId}
        className="pp-input"
        type="search"
        name="q"
        value={q}
        placeholder="Email, user id or Stripe customer"
        autoComplete="off"
        spellCheck={false}
        onChange={(event) => setQ(event.target.value)}
      />
      <button type="submit" className="pp-button pp-button--secondary">
        Find
      </button>
    </form>
  );
}

/**
 * Every console page: the top bar (its pages, the search box) over the page's main area, shown once
 * the API says the visitor is an operator (else the not-found screen: use-admin-data.ts).
 */
export function AdminShell({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(`${title} · Support`);
  const me = useAdminData<AdminOperator>(ADMIN_READS.me);
  if (!me.data) {
    return (
      <main id="main" tabIndex={-1} className="pp-container pp-admin__main">
        {me.error ? <ReadError error={me.error} onRetry={me.reload} /> : <p role="status">Loading…</p>}
      </main>
    );
  }
  return (
    <div className="pp-admin">
      <header className="pp-topbar">
        <div className="pp-container pp-admin__bar">
          <div className="pp-admin__brand">
            <Wordmark />
            <span className="pp-admin__badge">Support</span>
          </div>
          <p className="pp-admin__operator">
            <span className="pp-visually-hidden">Signed in as </span>
            {me.data.name}
          </p>
          <nav className="pp-admin__nav" aria-label="Support console">
            <NavLink className="pp-topbar__link" to={ADMIN_ROUTES.overview}>
              Overview
            </NavLink>
            <NavLink className="pp-topbar__link" to={ADMIN_ROUTES.audit}>
              Audit log
            </NavLink>
          </nav>
          <AccountSearch />
        </div>
      </header>
      <main id="main" tabIndex={-1} className="pp-container pp-admin__main">
        {children}
      </main>
    </div>
  );
}

/** A titled part of a console page. */
export function AdminSection({ title, aside, children }: { title: string; aside?: ReactNode; children: ReactNode }) {
  const headingId = useId();
  return (
    <section className="pp-card pp-admin__section" aria-labelledby={headingId}>
      <div className="pp-admin__section-head">
        <h2 id={headingId}>{title}</h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

/** A list's pages: Newer and Older, with where it is. */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  label,
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage(page: number): void;
  label: string;
}) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav className="pp-admin__pager" aria-label={`${label} pages`}>
      <button
        type="button"
        className="pp-button pp-button--secondary pp-admin__small"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Newer
      </button>
      <span className="pp-tabular">
        Page {page} of {pages}
      </span>
      <button
        type="button"
        className="pp-button pp-button--secondary pp-admin__small"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Older
      </button>
    </nav>
  );
}

/** A read that failed, with a way to try again. */
export function ReadError({ error, onRetry }: { error: string; onRetry(): void }) {
  return (
    <div className="pp-admin__read-error" role="alert">
      <p>{error}</p>
      <button type="button" className="pp-button pp-button--secondary pp-admin__small" onClick={onRetry}>
        Try again
      </button>
    </div>
  );
}
