import { useEffect } from 'react';
import { SkipLink } from '../components/SkipLink';
import { AuthProvider } from '../features/auth/AuthProvider';
import { endHydration, whenPageHydrated } from '../lib/deferred-part';
import { Outlet, ScrollRestoration, useNavigation } from '../lib/router';
import { RouteFocus } from './RouteFocus';

/**
 * Wraps every screen: the auth state, the skip link, a slim progress bar while the next page's chunk
 * loads, scroll restoration, focus on the new page's heading after a navigation.
 */
export function Root() {
  const navigation = useNavigation();
  // The app is live (a prerendered page hydrated with its deferred parts, or any other rendered):
  // <html data-app="live">. Browser tests wait for it before they click: before it, a prerendered
  // page is only HTML.
  useEffect(() => {
    endHydration();
    void whenPageHydrated().then(() => {
      document.documentElement.dataset.app = 'live';
    });
  }, []);
  return (
    <AuthProvider>
      <SkipLink />
      <div className="pp-route-progress" data-active={navigation.state !== 'idle'} aria-hidden="true" />
      <Outlet />
      <ScrollRestoration />
      <RouteFocus />
    </AuthProvider>
  );
}
