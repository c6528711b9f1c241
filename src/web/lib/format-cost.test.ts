import { describe, expect, it } from 'vitest';
import { formatCost, formatTokens } from './format-cost';

describe('formatCost', () => {
  it('uses the singular for one token and names the unit', () => {
    expect(formatCost({ cost: 1, costPer: 'image' })).toBe('1 token per image');
    expect(formatCost({ cost: 1, costPer: 'request' })).toBe('1 token per use');
  });

  it('uses the plural otherwise', () => {
    expect(formatCost({ cost: 70, costPer: 'request' })).toBe('70 tokens per use');
    expect(formatCost({ cost: 25, costPer: 'image' })).toBe('25 tokens per image');
  });
});

describe('formatTokens', () => {
  it('groups thousands', () => {
    expect(formatTokens(1)).toBe('1 token');
    expect(formatTokens(0)).toBe('0 tokens');
    expect(formatTokens(2400)).toBe('2,400 tokens');
  });
});
