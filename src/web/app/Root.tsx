import { SkipLink } from '../components/SkipLink';
import { AuthProvider } from '../features/auth/AuthProvider';
import { Outlet, ScrollRestoration, useNavigation } from '../lib/router';

/**
 * Wraps every screen: the auth state, the skip link, a slim progress bar while the next page's chunk
 * loads, scroll restoration.
 */
export function Root() {
  const navigation = useNavigation();
  return (
    <AuthProvider>
      <SkipLink />
      <div className="pp-route-progress" data-active={navigation.state !== 'idle'} aria-hidden="true" />
      <Outlet />
      <ScrollRestoration />
    </AuthProvider>
  );
}
