import { ArrowRight, Check, Palette } from 'lucide-react';
import { ROUTES, startTool } from '../../../contract/routes';
import { toolCountInWords } from '../../../contract/tool-count';
import { SupportFooterLink } from '../../components/SupportText';
import { Wordmark } from '../../components/Wordmark';
import { deferredPart } from '../../lib/deferred-part';
import { formatCost } from '../../lib/format-cost';
import { LEGAL_ROUTES } from '../../lib/legal-routes';
import { Link } from '../../lib/router';
import { type ToolPrices, useToolPrices } from '../../lib/tool-prices';
import { useDocumentTitle } from '../../lib/use-document-title';
import { AccountMenu } from './AccountMenu';
import { HeroAuth } from './HeroAuth';
import { Wave } from './Wave';

/** Everything under the hero: not needed for the first paint, so not in the landing route's chunk. */
export const BelowTheFold = deferredPart('landing-below-the-fold', () =>
  import('./BelowTheFold').then((m) => m.BelowTheFold),
);

const BENEFITS = [
  'Generate images from a text prompt, in the size you need',
  'Edit, colorize, restore and upscale your own photos',
  'Transparent cut-outs and new backgrounds in one step',
  'Pay only for what you use: tokens never expire',
];

/**
 * The hero's price line, as this server prices the tools: "Text to Pic from 1 token per image" where
 * Text to Pic is real here; where it is a free preview, that, and what the cheapest real tool takes.
 */
export function heroPriceLine({ of, paid }: ToolPrices): string {
  const start = of(startTool().id);
  if (!start.freePreview) return `${start.tool.title} from ${formatCost({ ...start.tool, cost: start.price })}`;
  const cheapest = paid[0];
  if (!cheapest) return 'Every tool is a free preview here for now: labelled samples that take no tokens.';
  return `${start.tool.title} is a free preview here. Other tools from ${formatCost({ ...cheapest.tool, cost: cheapest.price })}.`;
}

/** The landing page, stacked in the spec's order (product-spec.md section 2). */
export function LandingPage() {
  useDocumentTitle('AI image tools for designers');
  const textToPic = startTool();
  const prices = useToolPrices();

  return (
    <div className="pp-landing">
      <header className="pp-topbar pp-topbar--landing">
        <div className="pp-container pp-topbar__inner">
          <Wordmark />
          <nav className="pp-topbar__nav" aria-label="Site">
            <a href="#tools" className="pp-topbar__link pp-topbar__link--wide">
              Tools
            </a>
            <a href="#pricing" className="pp-topbar__link pp-topbar__link--pricing">
              Pricing
            </a>
            <a href="#faq" className="pp-topbar__link pp-topbar__link--wide">
              FAQ
            </a>
            <Link to={ROUTES.tokens} className="pp-topbar__link">
              Tokens
            </Link>
            <AccountMenu />
          </nav>
        </div>
      </header>

      <main id="main" tabIndex={-1}>
        <section className="pp-hero" aria-labelledby="hero-title">
          <div className="pp-container pp-hero__inner">
            <div className="pp-hero__copy">
              <span className="pp-hero__icon" data-testid="hero-icon">
                <Palette size={32} strokeWidth={2} aria-hidden="true" />
              </span>
              <p className="pp-eyebrow">AI image tools for designers</p>
              <h1 id="hero-title" className="pp-hero__title">
                Every image tool you need, <span className="pp-gradient-text">in one palette.</span>
              </h1>
              <p className="pp-hero__tagline">
                {toolCountInWords({ capital: true })} AI image tools in one studio. Generate new pictures, rework your
                own and get files ready to use in seconds.
              </p>
              <ul className="pp-benefits">
                {BENEFITS.map((benefit) => (
                  <li key={benefit} className="pp-benefits__item">
                    <span className="pp-benefits__check">
                      <Check size={14} strokeWidth={3} aria-hidden="true" />
                    </span>
                    {benefit}
                  </li>
                ))}
              </ul>
            </div>
            <div className="pp-hero__auth" id="sign-in">
              <HeroAuth />
            </div>
            <div className="pp-hero__actions">
              <Link to={textToPic.route} className="pp-button pp-button--secondary pp-button--lg">
                Explore the tools
                <ArrowRight size={20} aria-hidden="true" />
              </Link>
              <p className="pp-hero__price pp-tabular" data-testid="hero-price">
                {heroPriceLine(prices)}
              </p>
            </div>
          </div>
          <Wave />
        </section>

        <BelowTheFold />
      </main>

      <footer className="pp-footer">
        <div className="pp-container pp-footer__inner">
          <Wordmark />
          <p className="pp-footer__text">© {new Date().getFullYear()} Picture Palette. AI image tools for designers.</p>
          <nav className="pp-footer__links" aria-label="Footer">
            <Link to={ROUTES.developers}>Developers</Link>
            <Link to={LEGAL_ROUTES.terms}>Terms of Service</Link>
            <Link to={LEGAL_ROUTES.privacy}>Privacy Policy</Link>
            <SupportFooterLink />
          </nav>
        </div>
      </footer>
    </div>
  );
}
