import { Coins } from 'lucide-react';
import { type ToolId, toolById } from '../../../contract/tools';
import { TOOL_ICONS } from '../../components/icons';
import { Notice } from '../../components/Notice';
import { PageHeader } from '../../components/PageHeader';
import { PlaceholderPanel } from '../../components/PlaceholderPanel';
import { formatCost } from '../../lib/format-cost';
import { useDocumentTitle } from '../../lib/use-document-title';
import { WORKSPACES } from './workspace';

/** The shell every tool page renders: title, summary, price and the (not yet working) workspace. */
export function ToolPage({ toolId }: { toolId: ToolId }) {
  const tool = toolById(toolId);
  const workspace = WORKSPACES[toolId];
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
      <Notice>This tool is being set up: running it with your tokens arrives in an upcoming release.</Notice>
      <div className="pp-workspace">
        <PlaceholderPanel variant="input" {...workspace.input} />
        <PlaceholderPanel variant="output" {...workspace.result} />
      </div>
    </div>
  );
}
