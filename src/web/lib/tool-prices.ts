// What each tool costs on this server, for every page that states a price: a tool page's header and
// button, the landing page, its FAQ, /tokens and /developers. One source, GET /api/tools (decision 039:
// the local engine's Creative Upscaler costs 1 token; a tool whose results are labelled samples is a
// free preview), so no page can disagree with the tool page or with what is charged.
import { useEffect, useMemo, useState } from 'react';
import { startTool } from '../../contract/routes';
// The list itself, not contract/tools.ts (whose tables the landing page, which states prices, does not need).
import { TOOL_LIST } from '../../contract/tool-list';
import type { ToolInfo, ToolsInfo } from '../../contract/tool-responses';
import type { ToolDefinition, ToolId } from '../../contract/tools';
import { formatCost } from './format-cost';
import { knownToolsInfo, readToolsInfo } from './tools-info';

/** What a tool's price reads where it is given as a free preview (its header, its button, the lists). */
export const FREE_PREVIEW_PRICE = 'Free preview';
/** What a free preview is, in the words of a tool page's notice (FreePreviewNotice), for the pages that list the tools. */
export const FREE_PREVIEW_MEANING = 'a labelled sample, not AI, that takes no tokens';

export type ToolPricing = {
  /** 'demo', 'local', 'replicate', or null while unknown. */
  provider: string | null;
  /** Its results here are labelled placeholders: the page says "Free preview" where it would show a price. */
  freePreview: boolean;
  /** Tokens a call takes per unit (image or use): the server's, 0 for a free preview; the contract's while unknown. */
  price: number;
};

/** What `info` (the tool's line of /api/tools, null while unknown) says a call of `tool` takes. */
export function pricingOf(tool: Pick<ToolDefinition, 'cost'>, info: ToolInfo | null): ToolPricing {
  return {
    provider: info?.provider ?? null,
    freePreview: info?.freePreview ?? false,
    price: info?.price ?? tool.cost,
  };
}

export type ToolPrice = ToolPricing & { tool: ToolDefinition };

export type ToolPrices = {
  /** Every tool, in the menu's order. */
  all: readonly ToolPrice[];
  /** The tools with real results here, cheapest first (the menu's order between equals). */
  paid: readonly ToolPrice[];
  /** The tools given as free previews here, in the menu's order. */
  previews: readonly ToolPrice[];
  of(id: ToolId): ToolPrice;
  /**
   * What a token buys here, for examples ("Enough for 479 Text to Pic images"): Text to Pic when it is
   * real here (the spec's example), else the cheapest real tool; null when every tool is a free preview.
   */
  example: ToolPrice | null;
};

export function toolPricesFrom(info: ToolsInfo | null): ToolPrices {
  const all = TOOL_LIST.map((tool) => ({
    tool,
    ...pricingOf(tool, info?.tools.find((entry) => entry.id === tool.id) ?? null),
  }));
  const paid = all.filter((entry) => !entry.freePreview).sort((a, b) => a.price - b.price);
  const start = paid.find((entry) => entry.tool.id === startTool().id);
  return {
    all,
    paid,
    previews: all.filter((entry) => entry.freePreview),
    of: (id) => all.find((entry) => entry.tool.id === id) as ToolPrice,
    example: start ?? paid[0] ?? null,
  };
}

/**
 * Every tool's price on this server: known from the first render where the route waited for
 * /api/tools (toolsInfoReady) or the page was prerendered with it; the contract's prices until it answers.
 */
export function useToolPrices(): ToolPrices {
  const [info, setInfo] = useState<ToolsInfo | null>(knownToolsInfo);
  useEffect(() => {
    let live = true;
    void readToolsInfo().then((value) => {
      if (live && value) setInfo(value);
    });
    return () => {
      live = false;
    };
  }, []);
  return useMemo(() => toolPricesFrom(info), [info]);
}

/** "Free preview", or "1 token per image", "70 tokens per use": a tool's price where it is listed. */
export function priceInWords({ freePreview, price, tool }: ToolPrice): string {
  return freePreview ? FREE_PREVIEW_PRICE : formatCost({ ...tool, cost: price });
}

/** "479 Text to Pic images", "1 Image Upscaler use": how many units of `tool` `count` stands for. */
export function unitsOf(tool: Pick<ToolDefinition, 'title' | 'costPer'>, count: number): string {
  const unit = tool.costPer === 'image' ? 'image' : 'use';
  return `${count.toLocaleString('en-US')} ${tool.title} ${count === 1 ? unit : `${unit}s`}`;
}

/** "A, B and C". */
export const listInWords = (words: readonly string[]): string =>
  words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
