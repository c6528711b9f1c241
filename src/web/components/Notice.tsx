import { Info } from 'lucide-react';
import type { ReactNode } from 'react';

/** A quiet one-line status message (not an alert). */
export function Notice({ children }: { children: ReactNode }) {
  return (
    <p className="pp-notice">
      <Info className="pp-notice__icon" size={18} aria-hidden="true" />
      <span>{children}</span>
    </p>
  );
}
