import { Download, Link2Off } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { SharedCreation } from '../../../contract/creations';
import { downloadName } from '../../../contract/download-names';
import { withFormatExtension } from '../../../contract/output-files';
import { ROUTES } from '../../../contract/routes';
import { toolById } from '../../../contract/tools';
import { StandalonePage } from '../../components/StandalonePage';
import { getShared } from '../../lib/creations/creations-api';
import { Link, useParams } from '../../lib/router';
import { useDocumentTitle } from '../../lib/use-document-title';

type View = { phase: 'loading' } | { phase: 'gone' } | { phase: 'ready'; creation: SharedCreation };

const formatDay = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'long' });

/**
 * /shared/<token>: one creation someone shared, for anyone with the link, signed in or not. It shows
 * that creation only (the tool, the day, the images or the analysis), nothing else of its owner.
 */
export function SharedCreationPage() {
  const { token = '' } = useParams();
  const [view, setView] = useState<View>({ phase: 'loading' });
  // As the server's first answer titles it (its link-preview title), once the creation is known.
  useDocumentTitle(view.phase === 'ready' ? `Made with ${toolById(view.creation.tool).title}` : 'Shared creation');

  useEffect(() => {
    let live = true;
    getShared(token).then(
      (answer) => {
        if (live) setView(answer.ok && answer.data ? { phase: 'ready', creation: answer.data } : { phase: 'gone' });
      },
      () => live && setView({ phase: 'gone' }),
    );
    return () => {
      live = false;
    };
  }, [token]);

  return (
    <StandalonePage className="pp-shared" mainClassName="pp-container pp-shared__main">
      {view.phase === 'loading' ? (
        <p role="status">Loading the shared creation…</p>
      ) : view.phase === 'gone' ? (
        <section className="pp-card pp-card--center">
          <Link2Off size={32} aria-hidden="true" />
          <h1 className="pp-card__title">This link no longer works</h1>
          <p className="pp-card__text">Its owner may have turned sharing off or deleted the creation.</p>
          <Link className="pp-button pp-button--primary" to={ROUTES.home}>
            Discover Picture Palette
          </Link>
        </section>
      ) : (
        <SharedView creation={view.creation} />
      )}
    </StandalonePage>
  );
}

function SharedView({ creation }: { creation: SharedCreation }) {
  const title = toolById(creation.tool).title;
  return (
    <article className="pp-shared__creation">
      <h1 className="pp-shared__title">Made with {title}</h1>
      <p className="pp-shared__meta">{formatDay(creation.createdAt)}</p>
      <ul className="pp-shared__images">
        {creation.outputs.map((image, index) => {
          // The spec's name, with the extension of the format it was made in (an API call may ask another).
          const specName = downloadName(creation.tool, index + 1);
          const name = specName && image.format ? withFormatExtension(specName, image.format) : specName;
          return (
            <li key={image.url}>
              <img
                src={image.url}
                alt={`${title} result ${index + 1}`}
                width={image.width ?? undefined}
                height={image.height ?? undefined}
              />
              {name ? (
                // Our own origin: the browser saves it under the spec's name, no script needed.
                <a
                  className="pp-button pp-button--secondary pp-button--sm pp-shared__download"
                  href={image.url}
                  download={name}
                  aria-label={`Download ${name}`}
                >
                  <Download size={14} aria-hidden="true" />
                  {creation.outputs.length > 1 ? `Download image ${index + 1}` : 'Download'}
                </a>
              ) : null}
            </li>
          );
        })}
      </ul>
      {creation.keywords?.length ? (
        <p className="pp-shared__keywords">{creation.keywords.map((keyword) => keyword.keyword).join(', ')}</p>
      ) : null}
      {creation.colors?.length ? (
        <ul className="pp-shared__colors" aria-label="Colours">
          {creation.colors.map((color) => (
            <li key={color.hex}>
              <span className="pp-shared__swatch" style={{ background: color.hex }} aria-hidden="true" />
              {color.name} <span className="pp-tabular">{color.percentage}%</span>
            </li>
          ))}
        </ul>
      ) : null}
      <Link className="pp-button pp-button--primary" to={ROUTES.home}>
        Make your own with Picture Palette
      </Link>
    </article>
  );
}
