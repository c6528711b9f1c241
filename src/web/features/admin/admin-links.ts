// Links within the console: here, not in admin-routes.ts, which the app's entry carries.
import { ADMIN_ROUTES } from './admin-routes';

/** An account's page in the console. */
export const adminAccountPath = (id: string) => ADMIN_ROUTES.account.replace(':id', encodeURIComponent(id));

/** The overview with a search's results (the search box on every console page leads here). */
export const adminSearchPath = (q: string) =>
  q.trim() ? `${ADMIN_ROUTES.overview}?q=${encodeURIComponent(q.trim())}` : ADMIN_ROUTES.overview;
