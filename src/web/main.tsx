import '@fontsource-variable/inter';
import './styles/tokens.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/pages.css';
import './styles/landing.css';
import './styles/accounts.css';

import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { routes } from './app/routes';
import { startHydratingPrerenderedPage } from './lib/deferred-part';
import { createBrowserRouter, RouterProvider } from './lib/router';
import { setPrerenderedHint } from './lib/session/signed-in-hint';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

const router = createBrowserRouter(routes);
const app = (
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>
);

// A prerendered page (decision 021) carries what it was rendered with: the signed-in hint and the
// tools' providers (read by lib/tools-info.ts for every page that states a price). Hydration renders the same once the page's chunks are here; the session and the
// browser's own hint fill in after it. A location with history state (a reload after "Run again")
// renders differently from the page's HTML, so it is rendered afresh, as is the shell of other paths.
if (container.dataset.prerendered !== undefined && router.state.location.state === null) {
  setPrerenderedHint(container.dataset.signedIn === 'true');
  // Before the landing route's loader settles (it is still importing its chunk): it then leaves the
  // sections below the fold to load once the page is alive (lib/deferred-part.tsx).
  startHydratingPrerenderedPage();
  // After the page's first frame: the HTML paints before the scripts' heaviest work, not after it.
  const painted = new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
  void Promise.all([router.ready, painted]).then(() => {
    if (router.state.error) createRoot(container).render(app);
    // As a transition, hydration yields to the browser every few milliseconds instead of holding
    // the main thread for the whole page (one long task: Lighthouse's total blocking time).
    else startTransition(() => void hydrateRoot(container, app));
  });
} else {
  createRoot(container).render(app);
}
