import { beforeEach, describe, expect, it } from 'vitest';
import { recordResults, saveAsRecipePath, stepsOf } from './send-history';

beforeEach(() => sessionStorage.clear());

describe('a result’s "Send to" history (Save as recipe)', () => {
  it('chains the steps of a result sent from tool to tool, each with its own options and no image', () => {
    const cutOut = '/api/files/11111111-1111-4111-8111-111111111111';
    const upscaled = '/api/files/22222222-2222-4222-8222-222222222222';
    recordResults('background-remover', { image: 'data:image/png;base64,AAAA', background: '#ffffff', shadow: true }, [
      cutOut,
    ]);
    recordResults('image-upscaler', { image: cutOut, scale: 2, outputFormat: 'jpeg', webhook: undefined }, [upscaled]);
    expect(stepsOf(upscaled)).toEqual([
      { tool: 'background-remover', options: { background: '#ffffff', shadow: true } },
      { tool: 'image-upscaler', options: { scale: 2, outputFormat: 'jpeg' } },
    ]);
    expect(saveAsRecipePath(upscaled)).toBe(`/recipes?from=${encodeURIComponent(upscaled)}`);
  });

  it('starts afresh from an upload, and keeps nothing for a tool a recipe cannot hold', () => {
    const result = '/api/files/33333333-3333-4333-8333-333333333333';
    expect(recordResults('colorizer', { image: 'data:image/png;base64,AAAA' }, [result])).toEqual([
      { tool: 'colorizer', options: {} },
    ]);
    expect(recordResults('text-to-pic', { prompt: 'a cat' }, ['/api/files/x'])).toBeNull();
    expect(stepsOf('/api/files/x')).toEqual([]);
  });
});
