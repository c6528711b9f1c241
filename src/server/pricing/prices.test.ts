import { describe, expect, it } from 'vitest';
import { TOOL_IDS, toolById } from '../../contract/tools';
import { isFreePreview, listPrice, priceOf, unitPrice } from './prices';

describe('what a call costs on the provider that serves it (decision 039)', () => {
  it('gives every tool free on the demo, at its list price', () => {
    for (const tool of TOOL_IDS) {
      expect(isFreePreview(tool, 'demo'), tool).toBe(true);
      expect(listPrice(tool, 'demo'), tool).toBe(toolById(tool).cost);
      expect(unitPrice(tool, 'demo'), tool).toBe(0);
    }
  });

  it('gives Background Swap free on the local engine: its backgrounds are labelled placeholders', () => {
    expect(isFreePreview('background-swap', 'local')).toBe(true);
    expect(unitPrice('background-swap', 'local')).toBe(0);
    expect(priceOf('background-swap', 'local', 2)).toEqual({ cost: 50, charged: 0 });
    expect(isFreePreview('background-remover', 'local')).toBe(false);
  });

  it('prices the local Creative Upscaler like the Image Upscaler, and Replicate’s at the spec’s 70', () => {
    expect(unitPrice('creative-upscaler', 'local')).toBe(toolById('image-upscaler').cost);
    expect(priceOf('creative-upscaler', 'local', 1)).toEqual({ cost: 1, charged: 1 });
    expect(unitPrice('creative-upscaler', 'replicate')).toBe(70);
    expect(unitPrice('background-swap', 'replicate')).toBe(25);
  });

  it('keeps the spec’s price for every other tool on the local engine', () => {
    for (const tool of TOOL_IDS.filter((id) => id !== 'creative-upscaler' && id !== 'background-swap')) {
      expect(unitPrice(tool, 'local'), tool).toBe(toolById(tool).cost);
    }
  });

  it('charges a call its units times the price, and nothing where it is a free preview', () => {
    expect(priceOf('text-to-pic', 'replicate', 4)).toEqual({ cost: 4, charged: 4 });
    expect(priceOf('text-to-pic', 'demo', 4)).toEqual({ cost: 4, charged: 0 });
    expect(priceOf('background-swap', 'replicate', 3)).toEqual({ cost: 75, charged: 75 });
  });
});
