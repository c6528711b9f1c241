import { useId, useMemo, useState } from 'react';
import { useSupportEmail } from '../../lib/session/auth-context';
import { useToolPrices } from '../../lib/tool-prices';
import { faqFor } from './faq-content';

/** Twelve questions; each opens and closes on its own, showing + when closed and − when open. */
export function Faq() {
  const [open, setOpen] = useState<ReadonlySet<number>>(() => new Set());
  const idPrefix = useId();
  const prices = useToolPrices();
  const supportEmail = useSupportEmail();
  const faq = useMemo(() => faqFor(prices, supportEmail), [prices, supportEmail]);
  const toggle = (index: number) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(index)) next.add(index);
      return next;
    });

  return (
    <section id="faq" className="pp-section pp-faq" aria-labelledby="faq-title">
      <div className="pp-container pp-faq__inner">
        <div className="pp-section__head pp-section__head--center">
          <h2 id="faq-title" className="pp-section__title">
            Frequently asked questions
          </h2>
          <p className="pp-section__lead">Tokens, prices, sizes and rights, in short.</p>
        </div>
        <ul className="pp-faq__list" data-testid="faq">
          {faq.map((item, index) => {
            const isOpen = open.has(index);
            const answerId = `${idPrefix}-answer-${index}`;
            return (
              <li key={item.question} className="pp-faq__item" data-open={isOpen}>
                <h3 className="pp-faq__question">
                  <button
                    type="button"
                    className="pp-faq__toggle"
                    aria-expanded={isOpen}
                    aria-controls={answerId}
                    onClick={() => toggle(index)}
                  >
                    <span>{item.question}</span>
                    <span className="pp-faq__sign" aria-hidden="true" data-testid="faq-sign">
                      {isOpen ? '\u2212' : '+'}
                    </span>
                  </button>
                </h3>
                <div id={answerId} className="pp-faq__answer" hidden={!isOpen}>
                  <p>{item.answer}</p>
                </div>
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
