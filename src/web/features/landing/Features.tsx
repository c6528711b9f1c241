import { ArrowRight, Clock, Coins, FlaskConical, type LucideIcon, PiggyBank, ScanEye } from 'lucide-react';
import { toolCountInWords } from '../../../contract/tool-count';
import { ICONS } from '../../components/icons';
import { Link } from '../../lib/router';
import {
  FREE_PREVIEW_MEANING,
  FREE_PREVIEW_PRICE,
  priceInWords,
  type ToolPrice,
  type ToolPrices,
  useToolPrices,
} from '../../lib/tool-prices';

/** "One token makes one Text to Pic image", "2 tokens run the Background Remover once". */
function whatTokensBuy({ tool, price }: ToolPrice): string {
  const tokens = price === 1 ? 'One token' : `${price} tokens`;
  if (tool.costPer === 'image') return `${tokens} ${price === 1 ? 'makes' : 'make'} one ${tool.title} image`;
  return `${tokens} ${price === 1 ? 'runs' : 'run'} the ${tool.title} once`;
}

/** Save Money's promise, with a tool that is real here (the spec's Text to Pic where it is). */
export function saveMoneyText({ example }: ToolPrices): string {
  const noSubscription = 'No subscription, and tokens never expire.';
  if (!example) return `Every tool is a free preview here for now, so trying them costs nothing. ${noSubscription}`;
  const cents = example.price === 1 ? '1 cent' : `${example.price} cents`;
  return `${whatTokensBuy(example)}: ${cents} a picture. ${noSubscription}`;
}

/** The lead over the tools: which of them are free previews here, in plain words. */
function toolsLead({ paid, previews }: ToolPrices): string {
  const lead = `${toolCountInWords({ capital: true })} tools, one token balance. Every tool shows its price before you start.`;
  if (paid.length === 0) return `${lead} Here every tool is a free preview for now: ${FREE_PREVIEW_MEANING}.`;
  if (previews.length === 0) return lead;
  return `${lead} A tool marked “${FREE_PREVIEW_PRICE}” gives ${FREE_PREVIEW_MEANING}.`;
}

const FEATURES: { title: string; text: (prices: ToolPrices) => string; icon: LucideIcon }[] = [
  {
    title: 'Save Time',
    text: () =>
      'Skip the stock-photo hunt and the masking by hand. Describe a picture or drop in a photo, and get a finished file in seconds.',
    icon: Clock,
  },
  {
    title: 'Save Money',
    text: saveMoneyText,
    icon: PiggyBank,
  },
  {
    title: 'Photo Ready',
    text: () =>
      'Square, mobile and widescreen sizes, upscaling to 6x and clean cut-outs: images ready for the page, the feed or print.',
    icon: ScanEye,
  },
];

/** 'Make More / For Cheaper': the three promises, then every tool with its price. */
export function Features() {
  const prices = useToolPrices();
  return (
    <section id="tools" className="pp-section pp-features" aria-labelledby="features-title">
      <div className="pp-container">
        <div className="pp-section__head pp-section__head--center">
          <h2 id="features-title" className="pp-section__title pp-section__title--display">
            Make More
            <br />
            <span className="pp-gradient-text">For Cheaper</span>
          </h2>
          <p className="pp-section__lead">{toolsLead(prices)}</p>
        </div>
        <ul className="pp-feature-grid">
          {FEATURES.map(({ title, text, icon: Icon }) => (
            <li key={title} className="pp-card pp-feature">
              <span className="pp-feature__icon">
                <Icon size={24} aria-hidden="true" />
              </span>
              <h3 className="pp-feature__title">{title}</h3>
              <p className="pp-feature__text">{text(prices)}</p>
            </li>
          ))}
        </ul>

        <h3 className="pp-features__subtitle">{toolCountInWords({ capital: true })} tools. One token balance.</h3>
        <ul className="pp-tool-grid">
          {/* The featured tools (the contract's `featured`) get wide cards, two places each: the grid fills evenly
              at two and four columns when the places add up to a multiple of four. */}
          {prices.all.map((price) => {
            const { tool, freePreview } = price;
            const Icon = ICONS[tool.icon];
            const PriceIcon = freePreview ? FlaskConical : Coins;
            return (
              <li key={tool.id} className={tool.featured ? 'pp-tool-grid__featured' : undefined}>
                <Link to={tool.route} className="pp-tool-card">
                  <span className="pp-tool-card__icon">
                    <Icon size={24} aria-hidden="true" />
                  </span>
                  <h4 className="pp-tool-card__title">{tool.title}</h4>
                  <p className="pp-tool-card__summary">{tool.summary}</p>
                  <span className="pp-tool-card__footer">
                    <span className="pp-tool-card__cost pp-tabular" data-free-preview={freePreview}>
                      <PriceIcon size={14} aria-hidden="true" />
                      {priceInWords(price)}
                    </span>
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
