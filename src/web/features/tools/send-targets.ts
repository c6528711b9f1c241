// The tools a result can be sent to ("Send to Upscaler / Background Remover / ..."): those whose
// definition names a send label, in the contract's order, except the tool the result came from.
// Read from the contract's list, not the web registry: the registry loads the tool pages, which show
// these targets (an import loop).
import { TOOL_LIST } from '../../../contract/tool-list';
import type { ToolId } from '../../../contract/tools';

export type SendTarget = { label: string; route: string };

export const sendTargetsFrom = (from: ToolId | null): SendTarget[] =>
  TOOL_LIST.flatMap((tool) =>
    'sendLabel' in tool && tool.sendLabel && tool.id !== from
      ? [{ label: `Send to ${tool.sendLabel}`, route: tool.route }]
      : [],
  );
