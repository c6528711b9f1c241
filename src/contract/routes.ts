// Client routes of product-spec.md section 2 and the sidebar's menu, in the spec's order.
import { TOOLS, type ToolId, toolById } from './tools';

export const ROUTES = {
  home: '/',
  tokens: '/tokens',
  userSettings: '/user-settings',
} as const;

export const ALL_ROUTES: readonly string[] = [
  ROUTES.home,
  ROUTES.tokens,
  ...TOOLS.map((t) => t.route),
  ROUTES.userSettings,
];

export type MenuItem = { label: string; to: string; toolId?: ToolId };

const menuTool = (id: ToolId): MenuItem => ({ label: toolById(id).menuLabel, to: toolById(id).route, toolId: id });

/** "Menu labels: Home, Text to Pic, Metamorphose, ... Tokens, User Settings." */
export const MENU: readonly MenuItem[] = [
  { label: 'Home', to: ROUTES.home },
  menuTool('text-to-pic'),
  menuTool('metamorphose'),
  menuTool('colorizer'),
  menuTool('background-remover'),
  menuTool('creative-upscaler'),
  menuTool('fix-a-face'),
  menuTool('text-lab'),
  menuTool('background-swap'),
  menuTool('image-upscaler'),
  menuTool('image-analyzer'),
  { label: 'Tokens', to: ROUTES.tokens },
  { label: 'User Settings', to: ROUTES.userSettings },
];

/** Shown by the router for unknown routes and thrown errors (product-spec.md section 2). */
export const FALLBACK_ERROR_TEXT = 'Unexpected Application Error!';

/** "the chunk load timeout is 120 seconds" (product-spec.md section 1). */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
