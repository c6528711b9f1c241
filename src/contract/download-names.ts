// The spec's download names (product-spec.md section 7), per tool: the n-th image of a result
// (1-based), each its definition's `resultFiles.downloadName`. One table for the tools' own pages (their
// `result.fileName`) and the pages outside them (a shared creation, My Creations' viewer).
import { type ImageResultToolId, TOOLS, type ToolId } from './tools';

export const IMAGE_DOWNLOAD_NAMES = Object.fromEntries(
  TOOLS.flatMap((tool) => (tool.resultFiles ? [[tool.id, tool.resultFiles.downloadName]] : [])),
) as Record<ImageResultToolId, (n: number) => string>;

/** The file name the n-th image of `tool`'s result downloads as; null for a tool with no image (an analysis). */
export const downloadName = (tool: ToolId, n: number): string | null =>
  (IMAGE_DOWNLOAD_NAMES as Partial<Record<ToolId, (n: number) => string>>)[tool]?.(n) ?? null;
