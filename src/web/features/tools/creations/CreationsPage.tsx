import './creations.css';
import { Images } from 'lucide-react';
import { useCallback, useId, useState } from 'react';
import type { Creation, CreationUsage } from '../../../../contract/creations';
import { START_ROUTE, startTool } from '../../../../contract/routes';
import type { ToolId } from '../../../../contract/tools';
import { PageHeader } from '../../../components/PageHeader';
import { SignInPromptCard } from '../../../components/SignInPromptCard';
import { Link } from '../../../lib/router';
import { useAuth } from '../../../lib/session/auth-context';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { WEB_TOOLS } from '../registry';
import type { WebTool } from '../web-tool';
import { BatchCard } from './BatchCard';
import { BatchViewer } from './BatchViewer';
import { groupBatches } from './batch-groups';
import { CreationCard } from './CreationCard';
import { CreationViewer } from './CreationViewer';
import { useCreations } from './use-creations';

const TOOL_BY_ID = new Map<ToolId, WebTool>(WEB_TOOLS.map((tool) => [tool.id, tool]));

const GB = 1024 ** 3;

/** "340 KB", "12.5 MB", "1 GB". */
export function formatStorage(bytes: number): string {
  if (bytes >= GB) return `${Number((bytes / GB).toFixed(1))} GB`;
  if (bytes >= 1024 ** 2) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${Math.round(bytes / 1024)} KB`;
}

/** Storage used and how long things are kept, as the server states them. */
export function usageText(usage: CreationUsage): string {
  const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
  return (
    `${formatStorage(usage.usedBytes)} of ${formatStorage(usage.quotaBytes)} used. ` +
    `Uploaded images are deleted ${days(usage.uploadRetentionDays)} after the job; ` +
    `results are kept ${days(usage.resultRetentionDays)}, unless you delete them first.`
  );
}

/** /creations, "My Creations": everything the user made, by tool, with download, delete, share and run again. */
export function CreationsPage() {
  useDocumentTitle('My Creations');
  const { status } = useAuth();
  const [tool, setTool] = useState<ToolId | null>(null);
  // The id, not a copy: the viewer shows the grid's creation as it changes (its share link).
  const [openId, setOpenId] = useState<string | null>(null);
  /** A batch opened over the page: its id and tool. */
  const [openBatch, setOpenBatch] = useState<{ id: string; tool: WebTool } | null>(null);
  const filterId = useId();
  const list = useCreations(tool, status === 'signed-in');
  const close = useCallback(() => setOpenId(null), []);
  const closeBatch = useCallback(() => setOpenBatch(null), []);
  const open =
    openId && list.state.phase === 'ready'
      ? (list.state.creations.find((creation) => creation.id === openId) ?? null)
      : null;
  const openTool = open ? TOOL_BY_ID.get(open.tool) : undefined;

  return (
    <div className="pp-page pp-creations">
      <PageHeader
        icon={Images}
        title="My Creations"
        summary="Everything you made with the tools: open, download, share or run it again."
      />
      {status === 'signed-out' ? (
        <SignInPromptCard
          title="Sign in to see your creations"
          text="Your results are kept in your account, ready to download or use again."
          action="Sign in or create an account"
        />
      ) : (
        <>
          <div className="pp-creations__bar">
            <div className="pp-field pp-creations__filter">
              <label className="pp-field__label" htmlFor={filterId}>
                Tool
              </label>
              <select
                id={filterId}
                className="pp-input"
                value={tool ?? ''}
                onChange={(event) => setTool((event.target.value || null) as ToolId | null)}
              >
                <option value="">All tools</option>
                {WEB_TOOLS.map((entry) => (
                  <option key={entry.id} value={entry.id}>
                    {entry.title}
                  </option>
                ))}
              </select>
            </div>
            {list.usage ? (
              <p className="pp-creations__usage" data-testid="creations-usage">
                {usageText(list.usage)}
              </p>
            ) : null}
          </div>
          <CreationGrid
            list={list}
            tool={tool}
            onOpen={(creation) => setOpenId(creation.id)}
            onOpenBatch={(id, batchTool) => setOpenBatch({ id, tool: batchTool })}
          />
        </>
      )}
      {open && openTool ? (
        <CreationViewer
          creation={open}
          tool={openTool}
          onClose={close}
          onShared={(shareUrl) => list.shared(open.id, shareUrl)}
          onRefined={(version) => {
            // The new version opens, listed with its versions once the page is read again.
            void list.reload().then(() => setOpenId(version.id));
          }}
          onOpenVersion={setOpenId}
        />
      ) : null}
      {openBatch ? (
        <BatchViewer
          batchId={openBatch.id}
          tool={openBatch.tool}
          onClose={closeBatch}
          onDeleted={() => {
            list.removedBatch(openBatch.id);
            setOpenBatch(null);
          }}
        />
      ) : null}
    </div>
  );
}

type GridProps = {
  list: ReturnType<typeof useCreations>;
  tool: ToolId | null;
  onOpen: (creation: Creation) => void;
  onOpenBatch: (batchId: string, tool: WebTool) => void;
};

function CreationGrid({ list, tool, onOpen, onOpenBatch }: GridProps) {
  const { state } = list;
  if (state.phase === 'loading') {
    return (
      <p className="pp-creations__note" role="status">
        Loading your creations…
      </p>
    );
  }
  if (state.phase === 'error') {
    return (
      <p className="pp-creations__note" role="alert">
        Your creations could not be loaded.{' '}
        <button type="button" className="pp-link-button" onClick={() => void list.reload()}>
          Try again
        </button>
      </p>
    );
  }
  if (state.creations.length === 0) {
    const target = tool ? TOOL_BY_ID.get(tool) : undefined;
    return (
      <section className="pp-card pp-card--center pp-creations__empty" data-testid="creations-empty">
        <Images size={32} aria-hidden="true" />
        <h2 className="pp-card__title">{tool ? 'Nothing made with this tool yet' : 'Nothing here yet'}</h2>
        <p className="pp-card__text">What you make with the tools appears here, ready to download or use again.</p>
        <Link className="pp-button pp-button--primary" to={target?.route ?? START_ROUTE}>
          Try {target?.title ?? startTool().title}
        </Link>
      </section>
    );
  }
  return (
    <>
      <ul className="pp-creations__grid">
        {groupBatches(state.creations).map((entry) => {
          // A batch is one card, however many of its jobs the pages loaded so far hold.
          if (entry.kind === 'batch') {
            const batchTool = TOOL_BY_ID.get((entry.creations[0] as Creation).tool);
            if (!batchTool) return null;
            return (
              <BatchCard
                key={entry.batchId}
                batchId={entry.batchId}
                creations={entry.creations}
                tool={batchTool}
                onOpen={() => onOpenBatch(entry.batchId, batchTool)}
                onDeleted={() => list.removedBatch(entry.batchId)}
              />
            );
          }
          const { creation } = entry;
          const creationTool = TOOL_BY_ID.get(creation.tool);
          if (!creationTool) return null;
          return (
            <CreationCard
              key={creation.id}
              creation={creation}
              tool={creationTool}
              onOpen={() => onOpen(creation)}
              onDeleted={() => list.removed(creation.id)}
              onShared={(shareUrl) => list.shared(creation.id, shareUrl)}
            />
          );
        })}
      </ul>
      {state.next ? (
        <button
          type="button"
          className="pp-button pp-button--secondary pp-creations__more"
          disabled={state.loadingMore}
          onClick={() => void list.loadMore()}
        >
          {state.loadingMore ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
    </>
  );
}
