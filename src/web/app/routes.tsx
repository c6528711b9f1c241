import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import { ACCOUNT_ROUTES } from '../../contract/accounts';
import { ROUTES } from '../../contract/routes';
import { TOOLS, type ToolId } from '../../contract/tools';
import { lazyWithTimeout } from '../lib/lazy-with-timeout';
import { AppLoading } from './AppLoading';
import { ErrorScreen } from './ErrorScreen';
import { Root } from './Root';
import { ToolLayout } from './ToolLayout';

type LazyRoute = () => Promise<{ Component: ComponentType }>;

/** A route `lazy` loader for one page module: its own chunk, given up after the chunk load timeout. */
function page<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyRoute {
  const loadWithTimeout = lazyWithTimeout(load);
  return async () => ({ Component: pick(await loadWithTimeout()) });
}

const TOOL_PAGES: Record<ToolId, LazyRoute> = {
  'text-to-pic': page(
    () => import('../features/tools/text-to-pic/TextToPicPage'),
    (m) => m.TextToPicPage,
  ),
  metamorphose: page(
    () => import('../features/tools/metamorphose/MetamorphosePage'),
    (m) => m.MetamorphosePage,
  ),
  colorizer: page(
    () => import('../features/tools/colorizer/ColorizerPage'),
    (m) => m.ColorizerPage,
  ),
  'background-remover': page(
    () => import('../features/tools/background-remover/BackgroundRemoverPage'),
    (m) => m.BackgroundRemoverPage,
  ),
  'creative-upscaler': page(
    () => import('../features/tools/creative-upscaler/CreativeUpscalerPage'),
    (m) => m.CreativeUpscalerPage,
  ),
  'fix-a-face': page(
    () => import('../features/tools/fix-a-face/FixAFacePage'),
    (m) => m.FixAFacePage,
  ),
  'text-lab': page(
    () => import('../features/tools/text-lab/TextLabPage'),
    (m) => m.TextLabPage,
  ),
  'background-swap': page(
    () => import('../features/tools/background-swap/BackgroundSwapPage'),
    (m) => m.BackgroundSwapPage,
  ),
  'image-upscaler': page(
    () => import('../features/tools/image-upscaler/ImageUpscalerPage'),
    (m) => m.ImageUpscalerPage,
  ),
  'image-analyzer': page(
    () => import('../features/tools/image-analyzer/ImageAnalyzerPage'),
    (m) => m.ImageAnalyzerPage,
  ),
};

/**
 * Every route of product-spec.md section 2. Unknown paths match nothing, so the router raises its own
 * 404, which the root's ErrorBoundary shows as the fallback screen (as it does for thrown errors and
 * chunks that fail or time out).
 */
export const routes: RouteObject[] = [
  {
    id: 'root',
    path: ROUTES.home,
    Component: Root,
    ErrorBoundary: ErrorScreen,
    HydrateFallback: AppLoading,
    children: [
      {
        index: true,
        lazy: page(
          () => import('../features/landing/LandingPage'),
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
        id: 'tool-layout',
        Component: ToolLayout,
        children: [
          {
            path: ROUTES.tokens,
            lazy: page(
              () => import('../features/tokens/TokensPage'),
              (m) => m.TokensPage,
            ),
          },
          ...TOOLS.map((tool): RouteObject => ({ path: tool.route, lazy: TOOL_PAGES[tool.id] })),
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
