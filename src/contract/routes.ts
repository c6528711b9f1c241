// Client routes of product-spec.md section 2 and the sidebar's menu, built from the tool list in its order
// (tool-list.ts itself: this module is on the landing page's path, which tools.ts's tables are not).
import type { IconName } from './icons';
import { TOOL_LIST } from './tool-list';
import type { ToolDefinition, ToolId } from './tools';

export const ROUTES = {
  home: '/',
  tokens: '/tokens',
  /** "My Creations" (issue 17): what the user made. */
  creations: '/creations',
  /** Recipes (issue 58, decision 083): chains of tools the user keeps and runs on an image or a batch. */
  recipes: '/recipes',
  userSettings: '/user-settings',
  /** The public API's guide (issue 39), outside the spec's list: linked from the landing page's footer. */
  developers: '/developers',
} as const;

/** The public API's OpenAPI document (server/api-docs), linked from /developers. */
export const OPENAPI_DOCUMENT_PATH = '/api/openapi.json';

export const ALL_ROUTES: readonly string[] = [
  ROUTES.home,
  ROUTES.tokens,
  ...TOOL_LIST.map((t) => t.route),
  ROUTES.creations,
  ROUTES.recipes,
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
  { label: 'Recipes', to: ROUTES.recipes, icon: 'workflow' },
  { label: 'Tokens', to: ROUTES.tokens, icon: 'coins' },
  { label: 'User Settings', to: ROUTES.userSettings, icon: 'settings' },
];

export const MENU: readonly MenuItem[] = menuOf(TOOL_LIST);

/**
 * "After sign-in or sign-up the app goes to" the first tool's page (section 2); the landing page's
 * hero points there too.
 */
export function startTool(): ToolDefinition {
  const tool: ToolDefinition | undefined = TOOL_LIST[0];
  if (!tool) throw new Error('the tool list is empty');
  return tool;
}
export const START_ROUTE = startTool().route;

/** Shown by the router for unknown routes and thrown errors (product-spec.md section 2). */
export const FALLBACK_ERROR_TEXT = 'Unexpected Application Error!';

/** "the chunk load timeout is 120 seconds" (product-spec.md section 1). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
