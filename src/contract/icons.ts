// The icons the contract names, by lucide's names. The web maps each name to its component
// (src/web/components/icons.ts), so a tool brings its icon with its entry in tools.ts.

export const ICON_NAMES = [
  'house',
  'coins',
  'settings',
  'image-plus',
  'scan-face',
  'paintbrush',
  'eraser',
  'wand-sparkles',
  'smile',
  'letter-text',
  'replace',
  'maximize-2',
  'scan-search',
  'images',
  'workflow',
] as const;

export type IconName = (typeof ICON_NAMES)[number];
