import type { ToolDefinition } from '../../contract/tools';

/** "1 token per image", "70 tokens per use": the price of one unit of a tool. */
export function formatCost(tool: Pick<ToolDefinition, 'cost' | 'costPer'>): string {
  const tokens = `${tool.cost.toLocaleString('en-US')} ${tool.cost === 1 ? 'token' : 'tokens'}`;
  return `${tokens} per ${tool.costPer === 'image' ? 'image' : 'use'}`;
}

/** "1 token", "1,100 tokens". */
export function formatTokens(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'token' : 'tokens'}`;
}
