import { LEGAL_ROUTES } from '../../lib/legal-routes';
import { Link } from '../../lib/router';
import { LegalPage } from './LegalPage';

/** Route '/privacy': what we keep, why, for how long and who else sees it. */
export function PrivacyPage() {
  return (
    <LegalPage title="Privacy Policy" updated="November 2026">
      <h2>What we keep</h2>
      <ul>
        <li>Your account: your email address, your password (stored only as a hash) and whether it is verified.</li>
        <li>Your tokens and purchases: the balance, each purchase and each tool call's cost.</li>
        <li>Your images: the images you upload and the results the tools make.</li>
      </ul>
      <h2>How long</h2>
      <p>
        Uploads and results are kept until you delete them or our retention period deletes them, whichever comes first;
        see My Creations for the ones we hold. Your account and purchase records are kept while your account exists.
      </p>
      <h2>Who else sees it</h2>
      <ul>
        <li>Payments are made with our card payment provider; your card details go to it, never to us.</li>
        <li>If you sign in with Google, Google tells us your email address.</li>
        <li>
          Some tools send your image or prompt to the AI model provider that runs the model; others run on our own
          servers.
        </li>
      </ul>
      <p>We do not sell your data.</p>
      <h2>Cookies</h2>
      <p>Cookies are used only to keep you signed in. There are no advertising or tracking cookies.</p>
      <p>
        The rules for using the service: see the <Link to={LEGAL_ROUTES.terms}>Terms of Service</Link>.
      </p>
    </LegalPage>
  );
}
