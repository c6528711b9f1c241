import './tools.css';
import { CircleAlert, Coins, Cpu, FlaskConical, LogIn, MailWarning } from 'lucide-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';
import { ROUTES } from '../../../contract/routes';
import { TOOL_MESSAGES, type ToolId, toolById } from '../../../contract/tools';
import { TOOL_ICONS } from '../../components/icons';
import { PageHeader } from '../../components/PageHeader';
import { formatCost } from '../../lib/format-cost';
import { useDocumentTitle } from '../../lib/use-document-title';
import { useAuth } from '../auth/auth-context';
import { accessOf } from './tool-access';
import { providerOf } from './tool-api';

/** The header line of a visitor (product-spec.md section 8: "Please log in to use the ..."). */
export const signedOutBanner = (title: string) => `Please log in to use the ${title}.`;

/** What the page says about the account: signed out, suspended (red) or unverified; nothing when ready. */
function AccountBanner({ toolId }: { toolId: ToolId }) {
  const { status, profile } = useAuth();
  const access = accessOf(status, profile);
  if (access === 'signed-out') {
    return (
      <p className="pp-notice pp-banner" data-testid="account-banner">
        <LogIn size={18} aria-hidden="true" />
        <span>
          {signedOutBanner(toolById(toolId).title)} <Link to={ROUTES.home}>Sign in or create an account</Link>
        </span>
      </p>
    );
  }
  if (access === 'fraud' || access === 'dispute') {
    return (
      <p className="pp-notice pp-banner pp-banner--danger" role="alert" data-testid="account-banner">
        <CircleAlert size={18} aria-hidden="true" />
        <span>{access === 'fraud' ? TOOL_MESSAGES.fraud : TOOL_MESSAGES.dispute}</span>
      </p>
    );
  }
  if (access === 'unverified') {
    return (
      <p className="pp-notice pp-banner pp-banner--warning" data-testid="account-banner">
        <MailWarning size={18} aria-hidden="true" />
        <span>
          {TOOL_MESSAGES.unverified} <Link to={ROUTES.userSettings}>Verify your email in User Settings</Link>
        </span>
      </p>
    );
  }
  return null;
}

/** What the local engine does for a tool, where it differs from the hosted model a user may expect. */
const LOCAL_ENGINE_NOTES: Partial<Record<ToolId, string>> = {
  'fix-a-face':
    'Local engine, not GFPGAN: faces are found, sharpened at twice the size and blended back into a 2x upscale.',
  'creative-upscaler':
    'Local engine: a super-resolution model plus detail enhancement, not the hosted Clarity upscaler.',
  'background-swap':
    'Local engine: your subject is cut out by a real model, but the new backgrounds are simple scenes drawn from your description and marked DEMO.',
  'image-analyzer':
    'Local engine: keywords come from object, face and expression models running on this server; colours are measured from the pixels.',
};

/**
 * Says which engine serves the tool when it is not the hosted one: the labelled demo provider, or
 * the local engine (real models on this server's processor), and how to get the hosted model.
 */
function EngineNotice({ toolId }: { toolId: ToolId }) {
  const [provider, setProvider] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void providerOf(toolId).then((value) => {
      if (live) setProvider(value);
    });
    return () => {
      live = false;
    };
  }, [toolId]);
  if (provider === 'demo') {
    return (
      <p className="pp-notice pp-banner pp-banner--quiet" data-testid="demo-notice">
        <FlaskConical size={18} aria-hidden="true" />
        <span>
          Demo mode: this server has no AI model for {toolById(toolId).title}, so results are labelled placeholders. To
          run the real model, set <code>REPLICATE_API_TOKEN</code> in the server environment and restart the server.
        </span>
      </p>
    );
  }
  if (provider === 'local') {
    return (
      <p className="pp-notice pp-banner pp-banner--quiet" data-testid="engine-notice">
        <Cpu size={18} aria-hidden="true" />
        <span>
          {LOCAL_ENGINE_NOTES[toolId] ?? 'Runs on the local engine: an open model on this server’s own processor.'} For
          the hosted model, set <code>REPLICATE_API_TOKEN</code> in the server environment.
        </span>
      </p>
    );
  }
  return null;
}

/** The frame of every tool page: title, summary and price, the account and engine notices, then the tool. */
export function ToolPage({ toolId, children }: { toolId: ToolId; children: ReactNode }) {
  const tool = toolById(toolId);
  useDocumentTitle(tool.title);

  return (
    <div className="pp-page">
      <PageHeader
        icon={TOOL_ICONS[toolId]}
        title={tool.title}
        summary={tool.summary}
        aside={
          <span className="pp-cost-chip" data-testid="cost-chip">
            <Coins size={16} aria-hidden="true" />
            <span className="pp-tabular">{formatCost(tool)}</span>
          </span>
        }
      />
      <AccountBanner toolId={toolId} />
      <EngineNotice toolId={toolId} />
      {children}
    </div>
  );
}
