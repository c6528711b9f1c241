import { CircleCheck } from 'lucide-react';
import { useId } from 'react';
import { ROUTES } from '../../../contract/routes';
import { StandalonePage } from '../../components/StandalonePage';
import { Link } from '../../lib/router';
import { useDocumentTitle } from '../../lib/use-document-title';

export const DELETED_TEXT = {
  title: 'Your account is deleted',
  text: 'Your images, results, share links and personal data are gone, and you are signed out. Thank you for creating with Picture Palette.',
  home: 'Go to the home page',
} as const;

/** Where User Settings goes once the account is deleted: signed out, it says that it is done. */
export function AccountDeletedPage() {
  useDocumentTitle(DELETED_TEXT.title);
  const titleId = useId();
  return (
    <StandalonePage className="pp-auth-page" mainClassName="pp-auth-page__main">
      <section className="pp-auth-card pp-auth-card--page" aria-labelledby={titleId}>
        <span className="pp-auth-card__badge">
          <CircleCheck size={28} aria-hidden="true" />
        </span>
        <h1 id={titleId} className="pp-auth-card__title">
          {DELETED_TEXT.title}
        </h1>
        <p className="pp-auth-card__lead" role="status">
          {DELETED_TEXT.text}
        </p>
        <Link to={ROUTES.home} className="pp-button pp-button--primary pp-button--lg pp-auth-card__wide">
          {DELETED_TEXT.home}
        </Link>
      </section>
    </StandalonePage>
  );
}
