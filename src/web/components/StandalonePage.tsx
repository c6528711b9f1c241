import type { ReactNode } from 'react';
import { SkipLink } from './SkipLink';
import { Wordmark } from './Wordmark';

type Props = {
  className: string;
  mainClassName: string;
  /** Only for screens that replace Root (the error screen), which otherwise renders the skip link. */
  skipLink?: boolean;
  children: ReactNode;
};

/** A page outside the tool layout: a top bar with just the wordmark over one main area. */
export function StandalonePage({ className, mainClassName, skipLink = false, children }: Props) {
  return (
    <div className={className}>
      {skipLink ? <SkipLink /> : null}
      <header className="pp-topbar">
        <div className="pp-container pp-topbar__inner">
          <Wordmark />
        </div>
      </header>
      <main id="main" tabIndex={-1} className={mainClassName}>
        {children}
      </main>
    </div>
  );
}
