import { LEGAL_ROUTES } from '../../lib/legal-routes';
import { Link } from '../../lib/router';
import { LegalPage } from './LegalPage';

/** Route '/terms': what using Picture Palette means, in plain words. */
export function TermsPage() {
  return (
    <LegalPage title="Terms of Service" updated="November 2026">
      <h2>Your account</h2>
      <p>
        You need an account to use the tools. Keep your password to yourself; you are responsible for what is done with
        your account. We may suspend an account used for fraud or whose payments are disputed.
      </p>
      <h2>Tokens</h2>
      <p>
        Each tool costs the tokens shown beside it. Tokens are bought in packages, never expire and are not refunded
        once spent, except that a tool call that fails gives its tokens back.
      </p>
      <h2>Your images</h2>
      <p>
        You keep the rights to the images you upload and to the results the tools make from them. Upload only images you
        are allowed to use. Images that break the law or show explicit content are refused.
      </p>
      <h2>The service</h2>
      <p>
        The tools use AI models whose results vary; we offer them as they are, without guarantees about any result. We
        may change or end features, and these terms, with notice on this page.
      </p>
      <p>
        How we handle your data: see the <Link to={LEGAL_ROUTES.privacy}>Privacy Policy</Link>.
      </p>
    </LegalPage>
  );
}
