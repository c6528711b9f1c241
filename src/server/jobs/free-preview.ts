// What a tool call costs on the provider that serves it. Users pay only for real results (decisions
// 020, 039): a job whose result is a labelled placeholder is a free preview, on the demo for every
// tool and on the local engine for a tool whose local result is one (its module's `localResult`).
// A free preview is queued with nothing charged, and a paid job that one ends up serving (the
// routing changed between queueing and running) is refunded when it finishes. A local engine whose
// result is worth less than the spec's model's has a price of its own (`localPrice`).
import { type ToolId, toolById } from '../../contract/tools';
import { serverTool } from '../tools/registry';

/** Whether `provider` (a job's recorded provider, or the one that served it) gives `tool` as a free preview. */
export const isFreePreview = (tool: ToolId, provider: string): boolean =>
  provider === 'demo' || (provider === 'local' && serverTool(tool).localResult === 'preview');

/**
 * Tokens per unit (image or use) of `tool` on `provider`, what a job's `cost` is counted in (also
 * for a free preview): the local engine's own price where it has one, else the spec's.
 */
export const listPrice = (tool: ToolId, provider: string): number =>
  (provider === 'local' ? serverTool(tool).localPrice : undefined) ?? toolById(tool).cost;

/** Tokens per unit a call of `tool` takes from the balance on `provider`: nothing for a free preview. */
export const unitPrice = (tool: ToolId, provider: string): number =>
  isFreePreview(tool, provider) ? 0 : listPrice(tool, provider);

/** What queueing a job of this cost (its list price times its units) on this provider takes from the balance. */
export const chargeFor = (tool: ToolId, provider: string, cost: number): number =>
  isFreePreview(tool, provider) ? 0 : cost;
