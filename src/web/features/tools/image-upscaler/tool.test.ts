import { describe, expect, it } from 'vitest';
import { checksOf, messageOutcome, profileWith, REDIRECT_TO_TOKENS } from '../../../test-support/tool-fixtures';
import { SUSPENDED_MESSAGE } from '../tool-rules';
import { imageUpscaler } from './tool';

const check = checksOf(imageUpscaler);

describe('Image Upscaler: client rules (product-spec.md sections 5 and 7)', () => {
  it('no image does nothing, then sign-in, suspension, and too few tokens for its price sends to /tokens', () => {
    expect(imageUpscaler.cost).toBe(1);
    const cost = imageUpscaler.cost;
    expect(check({ profile: null, hasImage: false })).toEqual({ kind: 'ignore' });
    expect(check({ profile: null, cost })).toEqual(messageOutcome('Please log in to upscale images.'));
    expect(check({ profile: profileWith({ isDispute: true }), cost })).toEqual(messageOutcome(SUSPENDED_MESSAGE));
    expect(check({ profile: profileWith({ tokens: cost - 1 }), cost })).toEqual(REDIRECT_TO_TOKENS);
    expect(check({ profile: profileWith({ tokens: cost }), cost })).toBeNull();
  });

  it('switches its controls off for flagged or unverified accounts', () => {
    expect(imageUpscaler.checksAccountFlags).toBe(true);
  });

  it('saves its result as upscaled-image.webp', () => {
    expect(imageUpscaler.result.kind === 'images' && imageUpscaler.result.fileName(1)).toBe('upscaled-image.webp');
  });
});
