import './tools.css';
import { CircleAlert, Coins, Cpu, FlaskConical, LogIn, MailWarning } from 'lucide-react';
import type { ReactNode } from 'react';
import { ROUTES } from '../../../contract/routes';
import { ICONS } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { SupportText } from '../../components/SupportText';
import { formatCost } from '../../lib/format-cost';
import { Link } from '../../lib/router';
import { useAuth } from '../../lib/session/auth-context';
import { useSignedInHint } from '../../lib/session/signed-in-hint';
import { SIGN_IN_LINK } from '../../lib/sign-in-link';
import { useDocumentTitle } from '../../lib/use-document-title';
import { FREE_PREVIEW_PRICE } from './parts/FreePreviewNotice';
import { accessOf, accountProblem } from './tool-access';
import { useToolPricing } from './use-tool-pricing';
import type { WebTool } from './web-tool';

/** The header line of a visitor (product-spec.md section 8: "Please log in to use the ..."). */
export const signedOutBanner = (title: string) => `Please log in to use the ${title}.`;

/**
 * A visitor's banner. While the session loads it is there but unseen (`pending`), unless this browser
 * was signed in last time: it holds the room a visitor's banner takes, so that the form below does
 * not move when the session answers.
 */
function SignedOutBanner({ title, pending = false }: { title: string; pending?: boolean }) {
  return (
    <p
      className={pending ? 'pp-notice pp-banner pp-banner--pending' : 'pp-notice pp-banner'}
      data-testid={pending ? 'account-banner-pending' : 'account-banner'}
      aria-hidden={pending || undefined}
      inert={pending || undefined}
    >
      <LogIn size={18} aria-hidden="true" />
      <span>
        {signedOutBanner(title)} <Link to={SIGN_IN_LINK}>Sign in or create an account</Link>
      </span>
    </p>
  );
}

/** What the page says about the account: signed out, suspended (red) or unverified; nothing when ready. */
function AccountBanner({ title }: { title: string }) {
  const { status, profile } = useAuth();
  const access = accessOf(status, profile);
  const wasSignedIn = useSignedInHint();
  if (status === 'loading') return wasSignedIn ? null : <SignedOutBanner title={title} pending />;
  if (access === 'signed-out') return <SignedOutBanner title={title} />;
  const problem = accountProblem(access);
  if (access === 'fraud' || access === 'dispute') {
    return (
      <p className="pp-notice pp-banner pp-banner--danger" role="alert" data-testid="account-banner">
        <CircleAlert size={18} aria-hidden="true" />
        <span>{problem ? <SupportText text={problem} /> : null}</span>
      </p>
    );
  }
  if (access === 'unverified') {
    return (
      <p className="pp-notice pp-banner pp-banner--warning" data-testid="account-banner">
        <MailWarning size={18} aria-hidden="true" />
        <span>
          {problem} <Link to={ROUTES.userSettings}>Verify your email in User Settings</Link>
        </span>
      </p>
    );
  }
  return null;
}

/**
 * Says when the local engine serves the tool (real models on this server's processor). A tool the
 * demo serves says so beside its button instead (FreePreviewNotice, in the workspace).
 */
function EngineNotice({ tool }: { tool: WebTool }) {
  const { provider } = useToolPricing(tool);
  if (provider === 'local') {
    return (
      <p className="pp-notice pp-banner pp-banner--quiet" data-testid="engine-notice">
        <Cpu size={18} aria-hidden="true" />
        <span>{tool.localEngineNote ?? 'Runs on the local engine: an open model on our own server.'}</span>
      </p>
    );
  }
  return null;
}

/** The header's price: what a unit takes on this server, or "Free preview" where the tool is given as one. */
function PriceChip({ tool }: { tool: WebTool }) {
  const { freePreview, price } = useToolPricing(tool);
  return (
    <span className="pp-cost-chip" data-testid="cost-chip">
      {freePreview ? <FlaskConical size={16} aria-hidden="true" /> : <Coins size={16} aria-hidden="true" />}
      <span className="pp-tabular">{freePreview ? FREE_PREVIEW_PRICE : formatCost({ ...tool, cost: price })}</span>
    </span>
  );
}

/** The frame of every tool page: title, summary and price, the account and engine notices, then the tool. */
export function ToolPage({ tool, children }: { tool: WebTool; children: ReactNode }) {
  useDocumentTitle(tool.title);

  return (
    <div className="pp-page">
      <PageHeader icon={ICONS[tool.icon]} title={tool.title} summary={tool.summary} aside={<PriceChip tool={tool} />} />
      <AccountBanner title={tool.title} />
      <EngineNotice tool={tool} />
      {children}
    </div>
  );
}
