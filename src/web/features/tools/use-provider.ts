import { useEffect, useState } from 'react';
import type { ToolId } from '../../../contract/tools';
import { providerOf } from './tool-api';

/** The provider that serves `tool` here ('demo', 'local', 'replicate'), or null until /api/tools answers. */
export function useProvider(tool: ToolId): string | null {
  const [provider, setProvider] = useState<string | null>(null);
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
