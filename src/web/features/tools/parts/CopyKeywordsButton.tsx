import { useEffect, useState } from 'react';

/** How long the button says "Copied" (or that copying failed) before it reads as before. */
const FEEDBACK_MS = 2000;

type CopyState = 'idle' | 'copied' | 'failed';
const LABELS: Record<CopyState, string> = { idle: 'Copy keywords', copied: 'Copied', failed: 'Copy failed' };

/** Copies the keywords, comma separated, in one click; says so on the button. */
export function CopyKeywordsButton({ keywords }: { keywords: string[] }) {
  const [state, setState] = useState<CopyState>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      // Missing outside a secure context (plain http on another host): that is a failed copy too.
      await navigator.clipboard.writeText(keywords.join(', '));
      setState('copied');
    } catch {
      setState('failed');
    }
  };

  return (
    <button type="button" className="pp-button pp-button--secondary pp-analysis__action" onClick={copy}>
      <span aria-live="polite">{LABELS[state]}</span>
    </button>
  );
}
