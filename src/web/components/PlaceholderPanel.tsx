import type { LucideIcon } from 'lucide-react';
import { useId } from 'react';

type Props = {
  icon: LucideIcon;
  title: string;
  text: string;
  /** 'input': dashed drop-zone look; 'output': a transparency checkerboard where images land; 'plain': neither. */
  variant?: 'input' | 'output' | 'plain';
  className?: string;
};

/** A labelled, empty area of a page's layout: it shows where something will go and does nothing else. */
export function PlaceholderPanel({ icon: Icon, title, text, variant = 'output', className }: Props) {
  const titleId = useId();
  return (
    <section className={`pp-panel pp-panel--${variant}${className ? ` ${className}` : ''}`} aria-labelledby={titleId}>
      <h2 id={titleId} className="pp-panel__title">
        {title}
      </h2>
      <div className="pp-panel__body">
        <span className="pp-panel__icon">
          <Icon size={28} aria-hidden="true" />
        </span>
        <p className="pp-panel__text">{text}</p>
      </div>
    </section>
  );
}
