import { ArrowUp } from 'lucide-react';
import { SIGNUP_TOKENS } from '../../../contract/accounts';
import { scrollToTop } from './scroll-to-top';

/** The last word: back to the top, where the sign-in form (or the way into the app) waits. */
export function ClosingCta() {
  return (
    <section className="pp-cta" aria-labelledby="cta-title">
      <div className="pp-container pp-cta__inner">
        <h2 id="cta-title" className="pp-cta__title">
          Your next picture is a sentence away.
        </h2>
        <p className="pp-cta__text">Start with {SIGNUP_TOKENS} free tokens. No card needed to sign up.</p>
        <button type="button" className="pp-button pp-button--lg pp-cta__button" onClick={scrollToTop}>
          Create Your Pics Now
          <ArrowUp size={20} aria-hidden="true" />
        </button>
      </div>
    </section>
  );
}
