import { useEffect, useState } from 'react';
import type { ToolInfo } from '../../../contract/tool-responses';
import type { ToolDefinition, ToolId } from '../../../contract/tools';
import { pricingOf, type ToolPricing } from '../../lib/tool-prices';
import { knownToolInfo, toolInfoOf } from '../../lib/tools-info';

/**
 * What serves `tool` here and what a call takes, or null until /api/tools answers. Known from the
 * first render when the route already waited for it (toolsInfoReady).
 */
function useToolInfo(tool: ToolId): ToolInfo | null {
  const [info, setInfo] = useState<ToolInfo | null>(() => knownToolInfo(tool) ?? null);
  useEffect(() => {
    let live = true;
    void toolInfoOf(tool).then((value) => {
      if (live) setInfo(value);
    });
    return () => {
      live = false;
    };
  }, [tool]);
  return info;
}

/** What the server says a call of `tool` takes here (GET /api/tools), the contract's price until it answers. */
export function useToolPricing(tool: Pick<ToolDefinition, 'id' | 'cost'>): ToolPricing {
  return pricingOf(tool, useToolInfo(tool.id));
}
