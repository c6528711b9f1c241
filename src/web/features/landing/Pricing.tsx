import { PackageCards } from '../../components/purchases/PackageCards';
import { scrollToTop } from './scroll-to-top';

/** Plans & Pricing: one tab, Tokens, always selected, over the three packages. */
export function Pricing() {
  return (
    <section id="pricing" className="pp-section pp-pricing" aria-labelledby="pricing-title">
      <div className="pp-container">
        <div className="pp-section__head pp-section__head--center">
          <h2 id="pricing-title" className="pp-section__title">
            Plans &amp; Pricing
          </h2>
          <p className="pp-section__lead">Buy once, use any tool. Bigger packages cost less per token.</p>
        </div>
        <div className="pp-tabs" role="tablist" aria-label="Plan types">
          <button
            type="button"
            role="tab"
            id="pricing-tab-tokens"
            className="pp-tabs__tab"
            aria-selected="true"
            aria-controls="pricing-panel-tokens"
          >
            Tokens
          </button>
        </div>
        <div id="pricing-panel-tokens" role="tabpanel" aria-labelledby="pricing-tab-tokens">
          <PackageCards onSignedOut={scrollToTop} />
        </div>
      </div>
    </section>
  );
}
