// Which provider serves each tool here and what a call takes (GET /api/tools). Read once per page
// load; the route of every page that states a price (a tool page, the landing page, /tokens,
// /developers) waits for it beside its chunk (toolsInfoReady), so the page's first render already
// knows whether the engine notice shows and what each tool costs, and nothing is pushed down when it
// arrives (issue 18: CLS).
import type { ToolInfo, ToolsInfo } from '../../contract/tool-responses';
import type { ToolId } from '../../contract/tools';
import { getJson } from './api';

/** How long a tool page's route waits for /api/tools before it shows anyway. */
export const TOOLS_INFO_WAIT_MS = 1_500;

let toolsInfo: Promise<ToolsInfo | null> | null = null;
/** What /api/tools said, once it has answered (undefined before). */
let answered: ToolsInfo | null | undefined;

/** The answer a prerendered page was rendered with (decision 021): known without a request. */
function fromPrerenderedPage(): ToolsInfo | null {
  const root = typeof document === 'undefined' ? null : document.getElementById('root');
  if (root?.dataset.prerendered === undefined || !root.dataset.tools) return null;
  try {
    return JSON.parse(root.dataset.tools) as ToolsInfo;
  } catch {
    return null;
  }
}

function loadToolsInfo(): Promise<ToolsInfo | null> {
  if (!toolsInfo) {
    const fromPage = fromPrerenderedPage();
    if (fromPage) primeToolsInfo(fromPage);
  }
  toolsInfo ??= getJson<ToolsInfo>('/api/tools').then(
    (result) => (result.ok ? result.data : null),
    () => null,
  );
  const pending = toolsInfo;
  void pending.then((info) => {
    if (toolsInfo === pending) answered = info;
  });
  return pending;
}

const infoIn = (info: ToolsInfo | null, tool: ToolId) => info?.tools.find((entry) => entry.id === tool) ?? null;

/** What serves each tool here and what a call takes (null when unknown). */
export async function readToolsInfo(): Promise<ToolsInfo | null> {
  const info = await loadToolsInfo();
  if (!info) {
    toolsInfo = null; // ask again next time
    answered = undefined;
  }
  return info;
}

/** What serves `tool` here and what a call takes (null when unknown). */
export async function toolInfoOf(tool: ToolId): Promise<ToolInfo | null> {
  return infoIn(await readToolsInfo(), tool);
}

/**
 * What /api/tools said, known without waiting: its answer, or the one a prerendered page carries
 * (so that hydration renders what the server rendered); null when not known yet.
 */
export function knownToolsInfo(): ToolsInfo | null {
  if (answered === undefined && !toolsInfo) {
    const fromPage = fromPrerenderedPage();
    if (fromPage) primeToolsInfo(fromPage);
  }
  return answered ?? null;
}

/** What serves `tool` if /api/tools has already answered, else undefined (not yet known). */
export function knownToolInfo(tool: ToolId): ToolInfo | null | undefined {
  return answered ? infoIn(answered, tool) : undefined;
}

/** Resolves once /api/tools has answered, or after TOOLS_INFO_WAIT_MS: never holds a page for long. */
export function toolsInfoReady(): Promise<void> {
  return Promise.race([
    loadToolsInfo().then(() => undefined),
    new Promise<void>((resolve) => setTimeout(resolve, TOOLS_INFO_WAIT_MS)),
  ]);
}

/**
 * What the server said before any request: the prerender sets the answer it renders with, and a
 * prerendered page carries it (read above), so that hydration renders the same notices.
 */
export function primeToolsInfo(info: ToolsInfo): void {
  toolsInfo = Promise.resolve(info);
  answered = info;
}

/** For tests: forget what /api/tools said. */
export function forgetToolsInfo(): void {
  toolsInfo = null;
  answered = undefined;
}
