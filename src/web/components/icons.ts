import {
  Coins,
  Eraser,
  House,
  ImagePlus,
  Images,
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
  Workflow,
} from 'lucide-react';
import type { IconName } from '../../contract/icons';

/** The component of each icon the contract names (tools and menu items), shared by the sidebar, the landing page and the tool pages. */
export const ICONS: Record<IconName, LucideIcon> = {
  house: House,
  coins: Coins,
  settings: Settings,
  'image-plus': ImagePlus,
  'scan-face': ScanFace,
  paintbrush: Paintbrush,
  eraser: Eraser,
  'wand-sparkles': WandSparkles,
  smile: Smile,
  'letter-text': LetterText,
  replace: Replace,
  'maximize-2': Maximize2,
  'scan-search': ScanSearch,
  images: Images,
  workflow: Workflow,
};
