// Types of check-imports.mjs for the TypeScript that imports it (scripts/check-imports.test.ts).
export type LayerRow = { names: string[]; mayImport: 'everything' | string[]; line: number };

export const TABLE_PAGE: string;
export const TABLE_HEADING: string;
export function parseLayerTable(markdown: string): LayerRow[];
export function checkImports(options: { projectRoot?: string; rows: LayerRow[] }): {
  problems: string[];
  files: string[];
  rows: LayerRow[];
};
