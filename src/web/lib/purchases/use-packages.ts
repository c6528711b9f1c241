import { useEffect, useState } from 'react';
import { TOKEN_PACKAGES, type TokenPackage } from '../../../contract/packages';
import { loadPackages } from './purchase-api';

/** The packages on sale: the built-in table at once, the server's list as soon as it answers. */
export function usePackages(): readonly TokenPackage[] {
  const [packages, setPackages] = useState<readonly TokenPackage[]>(TOKEN_PACKAGES);
  useEffect(() => {
    let live = true;
    void loadPackages().then((list) => {
      if (live) setPackages(list);
    });
    return () => {
      live = false;
    };
  }, []);
  return packages;
}
