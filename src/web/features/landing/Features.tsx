import { ArrowRight, Clock, type LucideIcon, PiggyBank, ScanEye } from 'lucide-react';
import { TOOLS } from '../../../contract/tools';
import { ICONS } from '../../components/icons';
import { formatCost } from '../../lib/format-cost';
import { Link } from '../../lib/router';

const FEATURES: { title: string; text: string; icon: LucideIcon }[] = [
  {
    title: 'Save Time',
    text: 'Skip the stock-photo hunt and the masking by hand. Describe a picture or drop in a photo, and get a finished file in seconds.',
    icon: Clock,
  },
  {
    title: 'Save Money',
    text: 'One token makes one Text to Pic image: 1 cent a picture. No subscription, and tokens never expire.',
    icon: PiggyBank,
  },
  {
    title: 'Photo Ready',
    text: 'Square, mobile and widescreen sizes, upscaling to 6x and clean cut-outs: images ready for the page, the feed or print.',
    icon: ScanEye,
  },
];

/** 'Make More / For Cheaper': the three promises, then the ten tools with their prices. */
export function Features() {
  return (
    <section id="tools" className="pp-section pp-features" aria-labelledby="features-title">
      <div className="pp-container">
        <div className="pp-section__head pp-section__head--center">
          <h2 id="features-title" className="pp-section__title pp-section__title--display">
            Make More
            <br />
            <span className="pp-gradient-text">For Cheaper</span>
          </h2>
          <p className="pp-section__lead">Ten tools, one token balance. Every tool shows its price before you start.</p>
        </div>
        <ul className="pp-feature-grid">
          {FEATURES.map(({ title, text, icon: Icon }) => (
            <li key={title} className="pp-card pp-feature">
              <span className="pp-feature__icon">
                <Icon size={24} aria-hidden="true" />
              </span>
              <h3 className="pp-feature__title">{title}</h3>
              <p className="pp-feature__text">{text}</p>
            </li>
          ))}
        </ul>

        <h3 className="pp-features__subtitle">Ten tools. One token balance.</h3>
        <ul className="pp-tool-grid">
          {/* The featured tools get wide cards, so ten cards fill the grid evenly at two and four columns. */}
          {TOOLS.map((tool) => {
            const Icon = ICONS[tool.icon];
            return (
              <li key={tool.id} className={tool.featured ? 'pp-tool-grid__featured' : undefined}>
                <Link to={tool.route} className="pp-tool-card">
                  <span className="pp-tool-card__icon">
                    <Icon size={24} aria-hidden="true" />
                  </span>
                  <h4 className="pp-tool-card__title">{tool.title}</h4>
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
  );
}
