// Client routes of product-spec.md section 2 and the sidebar's menu, built from the tool list in its order.
import type { IconName } from './icons';
import { TOOLS, type ToolDefinition, type ToolId } from './tools';

export const ROUTES = {
  home: '/',
  tokens: '/tokens',
  /** "My Creations" (issue 17): what the user made. */
  creations: '/creations',
  userSettings: '/user-settings',
  /** The public API's guide (issue 39), outside the spec's list: linked from the landing page's footer. */
  developers: '/developers',
} as const;

/** The public API's OpenAPI document (server/api-docs), linked from /developers. */
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';

export const ALL_ROUTES: readonly string[] = [
  ROUTES.home,
  ROUTES.tokens,
  ...TOOLS.map((t) => t.route),
  ROUTES.creations,
  ROUTES.userSettings,
];

export type MenuItem = { label: string; to: string; icon: IconName; toolId?: ToolId };

/**
 * "Menu labels: Home, Text to Pic, Metamorphose, ... Tokens, User Settings": the tools in the list's
 * order, then My Creations (issue 17: next to the tools whose results it holds, before the account's items).
 */
export const menuOf = (tools: readonly ToolDefinition[]): MenuItem[] => [
  { label: 'Home', to: ROUTES.home, icon: 'house' },
  ...tools.map((tool) => ({ label: tool.menuLabel, to: tool.route, icon: tool.icon, toolId: tool.id })),
  { label: 'My Creations', to: ROUTES.creations, icon: 'images' },
  { label: 'Tokens', to: ROUTES.tokens, icon: 'coins' },
  { label: 'User Settings', to: ROUTES.userSettings, icon: 'settings' },
];

export const MENU: readonly MenuItem[] = menuOf(TOOLS);

/** "After sign-in or sign-up the app goes to /text-to-pic" (section 2); the landing page's hero points there too. */
export const START_ROUTE = '/text-to-pic';

/** The tool at START_ROUTE. */
export function startTool(): ToolDefinition {
  const tool = TOOLS.find((t) => t.route === START_ROUTE);
  if (!tool) throw new Error(`no tool at ${START_ROUTE}`);
  return tool;
}

/** Shown by the router for unknown routes and thrown errors (product-spec.md section 2). */
export const FALLBACK_ERROR_TEXT = 'Unexpected Application Error!';

/** "the chunk load timeout is 120 seconds" (product-spec.md section 1). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
