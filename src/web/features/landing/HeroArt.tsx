import { ImagePlus, Sparkles } from 'lucide-react';

const SWATCHES = ['#6C5CE7', '#8E60D6', '#B064C4', '#D867A9', '#FF6B8B'];

/** Decorative composition beside the headline (the sign-in form takes this place in a later release). */
export function HeroArt() {
  return (
    <div className="pp-hero-art" aria-hidden="true">
      <div className="pp-hero-art__frame pp-hero-art__frame--back" />
      <div className="pp-hero-art__frame pp-hero-art__frame--front">
        <div className="pp-hero-art__canvas">
          <Sparkles className="pp-hero-art__sparkle" size={40} />
        </div>
        <div className="pp-hero-art__swatches">
          {SWATCHES.map((color) => (
            <span key={color} className="pp-hero-art__swatch" style={{ background: color }} />
          ))}
        </div>
      </div>
      <div className="pp-hero-art__badge">
        <ImagePlus size={22} />
      </div>
    </div>
  );
}
