// The tools a result can be sent to ("Send to Upscaler / Background Remover / ..."): those whose web
// module names a send label, in the contract's order, except the tool the result came from.
import type { ToolId } from '../../../contract/tools';
import { WEB_TOOLS } from './registry';

export type SendTarget = { label: string; route: string };

export const sendTargetsFrom = (from: ToolId | null): SendTarget[] =>
  WEB_TOOLS.flatMap((tool) =>
    tool.sendLabel && tool.id !== from ? [{ label: `Send to ${tool.sendLabel}`, route: tool.route }] : [],
  );
