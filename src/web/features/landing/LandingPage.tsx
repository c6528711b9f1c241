import { ArrowRight, Check, Palette } from 'lucide-react';
import { Link } from 'react-router';
import { ROUTES } from '../../../contract/routes';
import { TOOLS, toolById } from '../../../contract/tools';
import { TOOL_ICONS } from '../../components/icons';
import { Wordmark } from '../../components/Wordmark';
import { formatCost } from '../../lib/format-cost';
import { useDocumentTitle } from '../../lib/use-document-title';
import { HeroAuth } from '../auth/HeroAuth';
import { Wave } from './Wave';

/** The two headline tools get wide cards, so ten cards fill the grid evenly at two and four columns. */
const FEATURED = new Set(['text-to-pic', 'metamorphose']);

const BENEFITS = [
  'Generate images from a text prompt, in the size you need',
  'Edit, colorize, restore and upscale your own photos',
  'Transparent cut-outs and new backgrounds in one step',
  'Pay only for what you use: tokens never expire',
];

export function LandingPage() {
  useDocumentTitle('AI image tools for designers');
  const textToPic = toolById('text-to-pic');

  return (
    <div className="pp-landing">
      <header className="pp-topbar pp-topbar--landing">
        <div className="pp-container pp-topbar__inner">
          <Wordmark />
          <nav className="pp-topbar__nav" aria-label="Site">
            <a href="#tools" className="pp-topbar__link">
              Tools
            </a>
            <Link to={ROUTES.tokens} className="pp-topbar__link">
              Tokens
            </Link>
          </nav>
        </div>
      </header>

      <main id="main" tabIndex={-1}>
        <section className="pp-hero" aria-labelledby="hero-title">
          <div className="pp-container pp-hero__inner">
            <div className="pp-hero__copy">
              <span className="pp-hero__icon">
                <Palette size={32} strokeWidth={2} aria-hidden="true" />
              </span>
              <p className="pp-eyebrow">AI image tools for designers</p>
              <h1 id="hero-title" className="pp-hero__title">
                Every image tool you need, <span className="pp-gradient-text">in one palette.</span>
              </h1>
              <p className="pp-hero__tagline">
                Ten AI image tools in one studio. Generate new pictures, rework your own and get files ready to use in
                seconds.
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
            <div className="pp-hero__auth">
              <HeroAuth />
            </div>
            <div className="pp-hero__actions">
              <Link to={textToPic.route} className="pp-button pp-button--secondary pp-button--lg">
                Explore the tools
                <ArrowRight size={20} aria-hidden="true" />
              </Link>
              <p className="pp-hero__price pp-tabular">
                {textToPic.title} from {formatCost(textToPic)}
              </p>
            </div>
          </div>
          <Wave />
        </section>

        <section id="tools" className="pp-section pp-section--tools" aria-labelledby="tools-title">
          <div className="pp-container">
            <div className="pp-section__head">
              <h2 id="tools-title" className="pp-section__title">
                Ten tools. One token balance.
              </h2>
              <p className="pp-section__lead">
                Every tool shows its price before you start. Tokens never expire, and unused tokens roll over.
              </p>
            </div>
            <ul className="pp-tool-grid">
              {TOOLS.map((tool) => {
                const Icon = TOOL_ICONS[tool.id];
                return (
                  <li key={tool.id} className={FEATURED.has(tool.id) ? 'pp-tool-grid__featured' : undefined}>
                    <Link to={tool.route} className="pp-tool-card">
                      <span className="pp-tool-card__icon">
                        <Icon size={24} aria-hidden="true" />
                      </span>
                      <h3 className="pp-tool-card__title">{tool.title}</h3>
                      <p className="pp-tool-card__summary">{tool.summary}</p>
                      <span className="pp-tool-card__footer">
                        <span className="pp-tool-card__cost pp-tabular">{formatCost(tool)}</span>
                        <ArrowRight className="pp-tool-card__arrow" size={18} aria-hidden="true" />
                      </span>
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        </section>
      </main>

      <footer className="pp-footer">
        <div className="pp-container pp-footer__inner">
          <Wordmark />
          <p className="pp-footer__text">© {new Date().getFullYear()} Picture Palette. AI image tools for designers.</p>
        </div>
      </footer>
    </div>
  );
}
