import './compare.css';
import { ZoomIn, ZoomOut } from 'lucide-react';
import { type CSSProperties, useId, useState } from 'react';

/** What a cut-out is shown on: its transparency is only visible against something. */
export const BACKDROPS = ['checkerboard', 'white', 'black', 'colour'] as const;
export type Backdrop = (typeof BACKDROPS)[number];

const BACKDROP_LABEL: Record<Backdrop, string> = {
  checkerboard: 'Checkerboard',
  white: 'White',
  black: 'Black',
  colour: 'Colour',
};

type Props = {
  before: string;
  after: string;
  alt: string;
  /** Background Remover: the result is a cut-out, shown on a backdrop the user picks. */
  cutout?: boolean;
};

/**
 * An image-to-image result: a before/after slider (a native range input laid over the picture, so
 * arrow keys, Home/End and screen readers work as for any slider) and a 1:1 zoom that shows the
 * result's real pixels, scrollable.
 */
export function CompareView({ before, after, alt, cutout = false }: Props) {
  const [position, setPosition] = useState(50);
  const [zoomed, setZoomed] = useState(false);
  const [backdrop, setBackdrop] = useState<Backdrop>('checkerboard');
  const [colour, setColour] = useState('#6c5ce7');
  const name = useId();
  const style = {
    '--pp-compare-position': `${position}%`,
    '--pp-backdrop-colour': colour,
  } as CSSProperties;

  return (
    <div className="pp-compare-view" style={style} data-backdrop={cutout ? backdrop : undefined}>
      {zoomed ? (
        <div className="pp-compare pp-compare--zoomed" data-testid="zoom-view">
          <img className="pp-compare__image" src={after} alt={`${alt}, at full size`} />
        </div>
      ) : (
        <div className="pp-compare" data-testid="compare-view">
          <img className="pp-compare__image" src={after} alt={alt} />
          <img className="pp-compare__image pp-compare__before" src={before} alt="" aria-hidden="true" />
          <span className="pp-compare__divider" aria-hidden="true" />
          <input
            type="range"
            className="pp-compare__range"
            min={0}
            max={100}
            step={1}
            value={position}
            aria-label="Before and after"
            aria-valuetext={`${position}% before, ${100 - position}% after`}
            onChange={(event) => setPosition(Number(event.target.value))}
          />
        </div>
      )}
      <div className="pp-compare-view__tools">
        <button
          type="button"
          className="pp-button pp-button--secondary pp-button--sm"
          aria-pressed={zoomed}
          onClick={() => setZoomed((on) => !on)}
        >
          {zoomed ? <ZoomOut size={16} aria-hidden="true" /> : <ZoomIn size={16} aria-hidden="true" />}
          {zoomed ? 'Fit' : 'Zoom 1:1'}
        </button>
        {cutout ? (
          <fieldset className="pp-backdrops">
            <legend className="pp-visually-hidden">Preview on</legend>
            {BACKDROPS.map((option) => (
              <label key={option} className="pp-backdrops__option">
                <input
                  type="radio"
                  name={name}
                  value={option}
                  checked={backdrop === option}
                  onChange={() => setBackdrop(option)}
                />
                {BACKDROP_LABEL[option]}
              </label>
            ))}
            {backdrop === 'colour' ? (
              <input
                type="color"
                aria-label="Backdrop colour"
                value={colour}
                onChange={(event) => setColour(event.target.value)}
              />
            ) : null}
          </fieldset>
        ) : null}
      </div>
    </div>
  );
}
