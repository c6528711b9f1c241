import {
  Coins,
  Eraser,
  House,
  ImagePlus,
  LetterText,
  type LucideIcon,
  Maximize2,
  Paintbrush,
  Replace,
  ScanFace,
  ScanSearch,
  Settings,
  Smile,
  WandSparkles,
} from 'lucide-react';
import type { MenuItem } from '../../contract/routes';
import { ROUTES } from '../../contract/routes';
import type { ToolId } from '../../contract/tools';

/** One icon per tool, shared by the sidebar, the landing page's tool grid and the tool pages. */
export const TOOL_ICONS: Record<ToolId, LucideIcon> = {
  'text-to-pic': ImagePlus,
  metamorphose: ScanFace,
  colorizer: Paintbrush,
  'background-remover': Eraser,
  'creative-upscaler': WandSparkles,
  'fix-a-face': Smile,
  'text-lab': LetterText,
  'background-swap': Replace,
  'image-upscaler': Maximize2,
  'image-analyzer': ScanSearch,
};

const PAGE_ICONS: Record<string, LucideIcon> = {
  [ROUTES.home]: House,
  [ROUTES.tokens]: Coins,
  [ROUTES.userSettings]: Settings,
};

export function menuIcon(item: MenuItem): LucideIcon {
  if (item.toolId) return TOOL_ICONS[item.toolId];
  return PAGE_ICONS[item.to] ?? House;
}
