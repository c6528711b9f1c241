import { type ReactNode, useId } from 'react';
import type { Analysis } from '../../../../contract/tool-responses';
import { CopyKeywordsButton } from './CopyKeywordsButton';
import { PaletteExports } from './PaletteExports';

/** A score from 0 to 1 as a whole percent. */
export const percent = (score: number) => `${Math.round(Math.min(1, Math.max(0, score)) * 100)}%`;

/** A percentage the server already gives in percent (0 to 100), rounded to one decimal when needed. */
const share = (percentage: number) => `${Math.round(percentage * 10) / 10}%`;

/** One titled list of the analysis and what can be done with it, or a line saying it is empty. */
function AnalysisList<T>({
  title,
  items,
  testId,
  render,
  actions,
}: {
  title: 'Keywords' | 'Colors';
  items: T[];
  testId: string;
  render: (item: T) => ReactNode;
  actions: ReactNode;
}) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId}>
      <h3 id={titleId} className="pp-analysis__title">
        {title}
      </h3>
      {items.length === 0 ? (
        <p className="pp-panel__text">No {title.toLowerCase()} found.</p>
      ) : (
        <>
          <ul className={`pp-${testId}`} data-testid={testId}>
            {items.map(render)}
          </ul>
          {actions}
        </>
      )}
    </section>
  );
}

/** The Image Analyzer's result: keywords with their scores, and the palette's colours. */
export function AnalysisResult({ analysis }: { analysis: Analysis }) {
  return (
    <div className="pp-analysis">
      <AnalysisList
        title="Keywords"
        items={analysis.keywords}
        testId="keywords"
        actions={<CopyKeywordsButton keywords={analysis.keywords.map((k) => k.keyword)} />}
        render={({ keyword, score }) => (
          <li key={keyword} className="pp-keywords__item">
            <span className="pp-keywords__word">{keyword}</span>
            <span className="pp-keywords__bar" aria-hidden="true">
              <span className="pp-keywords__fill" style={{ width: percent(score) }} />
            </span>
            <span className="pp-keywords__score pp-tabular">{percent(score)}</span>
          </li>
        )}
      />
      <AnalysisList
        title="Colors"
        items={analysis.colors}
        testId="colors"
        actions={<PaletteExports colors={analysis.colors} />}
        render={({ hex, name, percentage }) => (
          <li key={`${hex}-${name}`} className="pp-colors__item">
            <span className="pp-colors__swatch" style={{ background: hex }} aria-hidden="true" />
            <span className="pp-colors__name">{name}</span>
            <span className="pp-colors__hex">{hex.toUpperCase()}</span>
            <span className="pp-colors__share pp-tabular">{share(percentage)}</span>
          </li>
        )}
      />
    </div>
  );
}
