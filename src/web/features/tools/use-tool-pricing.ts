import { useEffect, useState } from 'react';
import type { ToolInfo } from '../../../contract/tool-responses';
import type { ToolDefinition, ToolId } from '../../../contract/tools';
import { knownToolInfo, toolInfoOf } from './tools-info';

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

export type ToolPricing = {
  /** 'demo', 'local', 'replicate', or null while unknown. */
  provider: string | null;
  /** Its results here are labelled placeholders: the page says "Free preview" where it would show a price. */
  freePreview: boolean;
  /** Tokens a call takes per unit (image or use): the server's, 0 for a free preview; the contract's while unknown. */
  price: number;
};

/** What the server says a call of `tool` takes here (GET /api/tools), the contract's price until it answers. */
export function useToolPricing(tool: Pick<ToolDefinition, 'id' | 'cost'>): ToolPricing {
  const info = useToolInfo(tool.id);
  return {
    provider: info?.provider ?? null,
    freePreview: info?.freePreview ?? false,
    price: info?.price ?? tool.cost,
  };
}
