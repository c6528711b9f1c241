import { Compass, House, RotateCw, TriangleAlert } from 'lucide-react';
import { FALLBACK_ERROR_TEXT, ROUTES } from '../../contract/routes';
import { StandalonePage } from '../components/StandalonePage';
import { SupportLink } from '../components/SupportText';
import { isRouteErrorResponse, Link, useRouteError } from '../lib/router';
import { useDocumentTitle } from '../lib/use-document-title';

/**
 * The reference an error carries (`reference`, as our 5xx answers have it: the request's
 * X-Request-Id), for the user to quote to support; null when it has none.
 */
function referenceOf(error: unknown): string | null {
  const reference = error !== null && typeof error === 'object' ? (error as { reference?: unknown }).reference : null;
  return typeof reference === 'string' && reference !== '' ? reference : null;
}

function describe(error: unknown): { notFound: boolean; detail: string } {
  if (isRouteErrorResponse(error)) {
    return { notFound: error.status === 404, detail: `${error.status} ${error.statusText}`.trim() };
  }
  if (error instanceof Error) return { notFound: false, detail: error.message || error.name };
  return { notFound: false, detail: typeof error === 'string' ? error : 'Unknown error' };
}

/** The router's fallback for unknown routes, failed chunk loads and thrown errors. */
export function ErrorScreen() {
  const error = useRouteError();
  const { notFound, detail } = describe(error);
  const reference = referenceOf(error);
  useDocumentTitle(notFound ? 'Page not found' : 'Something went wrong');
  const Icon = notFound ? Compass : TriangleAlert;

  return (
    <StandalonePage className="pp-error-page" mainClassName="pp-error" skipLink>
      <div className="pp-error__card">
        <span className="pp-error__icon">
          <Icon size={28} aria-hidden="true" />
        </span>
        <h1 className="pp-error__title">{FALLBACK_ERROR_TEXT}</h1>
        <p className="pp-error__text">
          {notFound
            ? 'We couldn’t find the page you were looking for. The address may be mistyped, or the page may have moved.'
            : 'Something went wrong while showing this page. Reloading usually fixes it; if it keeps happening, go back home and try again in a moment.'}
        </p>
        <p className="pp-error__detail">
          <span className="pp-visually-hidden">Error detail: </span>
          <code data-testid="error-detail">{detail}</code>
        </p>
        {reference ? (
          <p className="pp-error__detail" data-testid="error-reference">
            Reference: <code>{reference}</code>. If it keeps happening,{' '}
            <SupportLink reference={reference}>contact support</SupportLink> with it.
          </p>
        ) : null}
        <div className="pp-error__actions">
          <Link to={ROUTES.home} className="pp-button pp-button--primary">
            <House size={18} aria-hidden="true" />
            Back to Home
          </Link>
          {notFound ? null : (
            <button type="button" className="pp-button pp-button--secondary" onClick={() => window.location.reload()}>
              <RotateCw size={18} aria-hidden="true" />
              Reload page
            </button>
          )}
        </div>
      </div>
    </StandalonePage>
  );
}
