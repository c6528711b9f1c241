import { ClosingCta } from './ClosingCta';
import { Faq } from './Faq';
import { Features } from './Features';
import { Gallery } from './Gallery';
import { Pricing } from './Pricing';
import { Wave } from './Wave';

/**
 * The landing page under the hero, in the spec's order: its own chunk, which a prerendered landing
 * page fetches only once it is alive (lib/deferred-part.tsx, issue 18).
 */
export function BelowTheFold() {
  return (
    <>
      <Gallery />
      <Wave variant="into-base" />
      <Features />
      <Pricing />
      <Faq />
      <ClosingCta />
    </>
  );
}
