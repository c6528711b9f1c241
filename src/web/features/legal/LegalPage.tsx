import './legal.css';
import type { ReactNode } from 'react';
import { ROUTES } from '../../../contract/routes';
import { StandalonePage } from '../../components/StandalonePage';
import { Link } from '../../lib/router';
import { useDocumentTitle } from '../../lib/use-document-title';

/** A short policy page: its title, when it last changed, its sections and the way home. */
export function LegalPage({ title, updated, children }: { title: string; updated: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <StandalonePage className="pp-auth-page" mainClassName="pp-legal">
      <article className="pp-card pp-legal__card">
        <h1 className="pp-legal__title">{title}</h1>
        <p className="pp-legal__updated">Last updated {updated}</p>
        {children}
        <p>
          <Link to={ROUTES.home}>Back to Picture Palette</Link>
        </p>
      </article>
    </StandalonePage>
  );
}
