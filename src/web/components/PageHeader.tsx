import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

type Props = {
  icon: LucideIcon;
  title: string;
  summary: string;
  /** Shown beside the title, e.g. the cost chip. */
  aside?: ReactNode;
};

/** The h1 block at the top of every page in the tool layout. */
export function PageHeader({ icon: Icon, title, summary, aside }: Props) {
  return (
    <div className="pp-page-header">
      <span className="pp-page-header__icon">
        <Icon size={24} aria-hidden="true" />
      </span>
      <div className="pp-page-header__text">
        {/* tabIndex -1: focus lands here after a navigation (app/RouteFocus.tsx). */}
        <h1 className="pp-page-header__title" tabIndex={-1}>
          {title}
        </h1>
        <p className="pp-page-header__summary">{summary}</p>
      </div>
      {aside ? <div className="pp-page-header__aside">{aside}</div> : null}
    </div>
  );
}
