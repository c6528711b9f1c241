import { useEffect, useState } from 'react';
import type { ToolId } from '../../../contract/tools';
import { knownProvider, providerOf } from './tools-info';

/**
 * The provider that serves `tool` here ('demo', 'local', 'replicate'), or null until /api/tools
 * answers. Known from the first render when the route already waited for it (toolsInfoReady).
 */
export function useProvider(tool: ToolId): string | null {
  const [provider, setProvider] = useState<string | null>(() => knownProvider(tool) ?? null);
  useEffect(() => {
    let live = true;
    void providerOf(tool).then((value) => {
      if (live) setProvider(value);
    });
    return () => {
      live = false;
    };
  }, [tool]);
  return provider;
}
