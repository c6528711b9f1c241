import type { ComponentType } from 'react';
import { ACCOUNT_ROUTES } from '../../contract/accounts';
import { SHARED_ROUTE_PREFIX } from '../../contract/creations';
import { ROUTES } from '../../contract/routes';
import { TOOL_LIST } from '../../contract/tool-list';
import { ADMIN_ROUTES } from '../features/admin/admin-routes';
import type { WebToolWithPage } from '../features/tools/web-tool';
import { lazyWithTimeout } from '../lib/lazy-with-timeout';
import { LEGAL_ROUTES } from '../lib/legal-routes';
import type { RouteObject } from '../lib/router';
import { AppLoading } from './AppLoading';
import { ErrorScreen } from './ErrorScreen';
import { Root } from './Root';

type LazyRoute = () => Promise<{ Component: ComponentType }>;

/** A route `lazy` loader for one page module: its own chunk, given up after the chunk load timeout. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyRoute {
  const loadWithTimeout = lazyWithTimeout(load);
  return async () => ({ Component: pick(await loadWithTimeout()) });
}

/**
 * A page that states the tools' prices: its chunk and this server's prices (GET /api/tools) come
 * together, so its first render shows the prices charged here (lib/tool-prices.ts), not the list's.
 */
function pricedPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyRoute {
  return page(
    () => Promise.all([load(), import('../lib/tools-info').then(({ toolsInfoReady }) => toolsInfoReady())]),
    ([module]) => pick(module),
  );
}

/** The support console's pages (issue 57): one chunk, loaded at /admin only. */
const adminPages = () => import('../features/admin/AdminPages');

/** What the router needs of a tool: its route and its page. */
export type ToolRoute = Pick<WebToolWithPage, 'route' | 'loadPage'>;

/**
 * Every route of product-spec.md section 2, a route per tool of `tools`. Unknown paths match nothing,
 * so the router raises its own 404, which the root's ErrorBoundary shows as the fallback screen (as it
 * does for thrown errors and chunks that fail or time out).
 */
export const routesFor = (tools: readonly ToolRoute[]): RouteObject[] => [
  {
    id: 'root',
    path: ROUTES.home,
    Component: Root,
    ErrorBoundary: ErrorScreen,
    HydrateFallback: AppLoading,
    children: [
      {
        index: true,
        lazy: pricedPage(
          // With its sections below the fold, except while a prerendered landing page hydrates.
          () =>
            import('../features/landing/LandingPage').then(async (m) => {
              await m.BelowTheFold.preloadWithPage();
              return m;
            }),
          (m) => m.LandingPage,
        ),
      },
      {
        path: ACCOUNT_ROUTES.resetPassword,
        lazy: page(
          () => import('../features/auth/ResetPasswordPage'),
          (m) => m.ResetPasswordPage,
        ),
      },
      {
        path: ACCOUNT_ROUTES.accountDeleted,
        lazy: page(
          () => import('../features/settings/AccountDeletedPage'),
          (m) => m.AccountDeletedPage,
        ),
      },
      {
        path: `${SHARED_ROUTE_PREFIX}:token`,
        lazy: page(
          () => import('../features/shared-creation/SharedCreationPage'),
          (m) => m.SharedCreationPage,
        ),
      },
      {
        path: LEGAL_ROUTES.terms,
        lazy: page(
          () => import('../features/legal/TermsPage'),
          (m) => m.TermsPage,
        ),
      },
      {
        path: LEGAL_ROUTES.privacy,
        lazy: page(
          () => import('../features/legal/PrivacyPage'),
          (m) => m.PrivacyPage,
        ),
      },
      {
        path: ROUTES.developers,
        // With the web registry: the guide shows each tool's example call from its web module.
        lazy: pricedPage(
          async () => {
            const [{ developersPageFor }, { WEB_TOOLS }] = await Promise.all([
              import('../features/developers/DevelopersPage'),
              import('../features/tools/registry'),
            ]);
            return developersPageFor(WEB_TOOLS);
          },
          (Component) => Component,
        ),
      },
      // The support console (issue 57): one chunk for its pages, which show the not-found screen to
      // anyone but an operator (its API answers them 404).
      { path: ADMIN_ROUTES.overview, lazy: page(adminPages, (m) => m.AdminOverviewPage) },
      { path: ADMIN_ROUTES.account, lazy: page(adminPages, (m) => m.AdminAccountPage) },
      { path: ADMIN_ROUTES.audit, lazy: page(adminPages, (m) => m.AdminAuditPage) },
      {
        id: 'tool-layout',
        // Its own chunk (sidebar, job toasts): the landing page does not need it; a tool page loads
        // it alongside its own chunk.
        lazy: page(
          () => import('./ToolLayout'),
          (m) => m.ToolLayout,
        ),
        children: [
          {
            path: ROUTES.tokens,
            lazy: pricedPage(
              () => import('../features/tokens/TokensPage'),
              (m) => m.TokensPage,
            ),
          },
          ...tools.map(
            (tool): RouteObject => ({
              path: tool.route,
              // The providers come beside the chunk: the page's notices are known at its first render.
              lazy: pricedPage(
                () => tool.loadPage(),
                (Component) => Component,
              ),
            }),
          ),
          {
            path: ROUTES.creations,
            lazy: page(
              () => import('../features/tools/creations/CreationsPage'),
              (m) => m.CreationsPage,
            ),
          },
          {
            path: ROUTES.recipes,
            lazy: pricedPage(
              () => import('../features/recipes/RecipesPage'),
              (m) => m.RecipesPage,
            ),
          },
          {
            path: ROUTES.userSettings,
            lazy: page(
              () => import('../features/settings/UserSettingsPage'),
              (m) => m.UserSettingsPage,
            ),
          },
        ],
      },
    ],
  },
];

/**
 * The app's routes: a route per tool of the contract, in its order. The web registry (every tool's
 * rules and words) loads with a tool's page, not with the app: the landing page does not need it; nor
 * does it need contract/tools.ts's tables, so the list comes from tool-list.ts.
 */
export const routes: RouteObject[] = routesFor(
  TOOL_LIST.map((tool) => ({
    route: tool.route,
    loadPage: async () => {
      const { WEB_TOOLS } = await import('../features/tools/registry');
      const web = WEB_TOOLS.find((module) => module.id === tool.id);
      if (!web) throw new Error(`No web module for the tool ${tool.id}`);
      return web.loadPage();
    },
  })),
);
