import { describe, expect, it } from 'vitest';
import { checksOf, messageOutcome, profileWith } from '../../../test-support/tool-fixtures';
import { backgroundSwap } from './tool';

const check = checksOf(backgroundSwap);

describe('Background Swap: client rules (product-spec.md sections 5 to 7)', () => {
  it('checks sign-in, 25 tokens per image, then the image; no flag checks', () => {
    expect(check({ profile: null, hasImage: false })).toEqual(messageOutcome('Please log in to swap backgrounds'));
    expect(check({ profile: profileWith({ tokens: 49 }), cost: 50, hasImage: false })).toEqual(
      messageOutcome('Not enough tokens available'),
    );
    expect(check({ cost: 20, hasImage: false })).toEqual(messageOutcome('Please upload an image'));
    expect(backgroundSwap.checksAccountFlags).toBe(false);
  });

  it('names downloads background-swap-N.webp', () => {
    expect(backgroundSwap.result.kind === 'images' && backgroundSwap.result.fileName(4)).toBe('background-swap-4.webp');
  });
});
