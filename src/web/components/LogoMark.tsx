import { useId } from 'react';

/** The brand mark: a palette drawn on the brand gradient. Decorative; the wordmark carries the name. */
export function LogoMark({ size = 32 }: { size?: number }) {
  const gradientId = useId();
  return (
    <svg className="pp-logo-mark" width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="32" y2="32" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#6C5CE7" />
          <stop offset="1" stopColor="#FF6B8B" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill={`url(#${gradientId})`} />
      <path
        d="M16 7.5c-4.97 0-9 3.58-9 8 0 4.42 3.58 8.5 8 8.5 1.1 0 1.75-.62 1.75-1.5 0-.42-.17-.77-.4-1.07-.23-.3-.35-.58-.35-.93 0-.83.67-1.5 1.5-1.5h1.75c2.76 0 4.75-2.02 4.75-4.75 0-3.9-3.58-6.75-8-6.75Z"
        fill="#fff"
      />
      <circle cx="11.5" cy="15" r="1.6" fill="#6C5CE7" />
      <circle cx="14.5" cy="11.2" r="1.6" fill="#A864C4" />
      <circle cx="19" cy="11.6" r="1.6" fill="#FF6B8B" />
    </svg>
  );
}
