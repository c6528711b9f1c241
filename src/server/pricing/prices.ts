// Prices: what a tool call costs on the provider that serves it and what it takes from the balance,
// worked out here only (decisions 020, 039), from the tool's contract definition alone: its `cost`
// per unit (`costPer`: each image asked for, or one request), on the local engine its `localPrice`
// where it has one (a local result worth less than the spec's model's). Users pay only for real
// results: a job whose result is a labelled placeholder is a free preview, on the demo for every
// tool and on the local engine for a tool whose local result is one (`localResult`). A free preview
// is queued with nothing charged; a paid job that one ends up serving (the routing changed between
// queueing and running) is refunded when it finishes (jobs/refunds.ts). Imports only the contract:
// tools, jobs, batches and the API's documents ask it.
import { type ToolId, toolById } from '../../contract/tools';

/** Whether `provider` (a job's recorded provider, or the one that served it) gives `tool` as a free preview. */
export const isFreePreview = (tool: ToolId, provider: string): boolean =>
  provider === 'demo' || (provider === 'local' && toolById(tool).localResult === 'preview');

/**
 * Tokens per unit of `tool` on `provider`, what a job's `cost` is counted in (also for a free
 * preview): the local engine's own price where it has one, else the spec's.
 */
export const listPrice = (tool: ToolId, provider: string): number => {
  const definition = toolById(tool);
  return (provider === 'local' ? definition.localPrice : undefined) ?? definition.cost;
};

/** A call's price: `cost`, its list price times its units (the job records it); `charged`, what it takes from the balance. */
export type CallPrice = { cost: number; charged: number };

/** The price of a call of `units` (images asked for, or one request) of `tool` on `provider`: nothing charged for a free preview. */
export function priceOf(tool: ToolId, provider: string, units: number): CallPrice {
  const cost = listPrice(tool, provider) * units;
  return { cost, charged: isFreePreview(tool, provider) ? 0 : cost };
}

/** Tokens per unit a call of `tool` takes from the balance on `provider`: nothing for a free preview. */
export const unitPrice = (tool: ToolId, provider: string): number => priceOf(tool, provider, 1).charged;
