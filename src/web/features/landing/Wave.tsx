import { useId } from 'react';

type Props = {
  /**
   * 'into-alt' (under the hero): from the page colour into the alternate band below.
   * 'into-base' (under the gallery): the other way round, mirrored so the two waves do not repeat.
   */
  variant?: 'into-alt' | 'into-base';
};

/** Decorative wave: a band of the brand gradient over the next section's colour. */
export function Wave({ variant = 'into-alt' }: Props) {
  const gradientId = useId();
  return (
    <svg
      className={`pp-wave pp-wave--${variant}`}
      viewBox="0 0 1440 120"
      preserveAspectRatio="none"
      aria-hidden="true"
      focusable="false"
      data-testid="wave"
    >
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="0">
          <stop offset="0" stopColor="#6C5CE7" />
          <stop offset="1" stopColor="#FF6B8B" />
        </linearGradient>
      </defs>
      <path
        d="M0 70C180 40 360 30 540 52s360 68 540 56 270-54 360-70v82H0Z"
        fill={`url(#${gradientId})`}
        opacity="0.9"
      />
      <path className="pp-wave__fill" d="M0 86C180 56 360 46 540 68s360 68 540 56 270-54 360-70v66H0Z" />
    </svg>
  );
}
