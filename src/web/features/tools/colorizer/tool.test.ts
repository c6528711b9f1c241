import { describe, expect, it } from 'vitest';
import { checksOf, messageOutcome, profileWith, REDIRECT_TO_TOKENS } from '../../../test-support/tool-fixtures';
import { SUSPENDED_MESSAGE } from '../tool-rules';
import { colorizer } from './tool';

const check = checksOf(colorizer);

describe('Colorizer: client rules (product-spec.md sections 5 and 7)', () => {
  it('no image does nothing, then sign-in, suspension, and too few tokens for its price sends to /tokens', () => {
    expect(colorizer.cost).toBe(6);
    const cost = colorizer.cost;
    expect(check({ profile: null, hasImage: false })).toEqual({ kind: 'ignore' });
    expect(check({ profile: null, cost })).toEqual(messageOutcome('Please log in to colorize images.'));
    expect(check({ profile: profileWith({ isDispute: true }), cost })).toEqual(messageOutcome(SUSPENDED_MESSAGE));
    expect(check({ profile: profileWith({ tokens: cost - 1 }), cost })).toEqual(REDIRECT_TO_TOKENS);
    expect(check({ profile: profileWith({ tokens: cost }), cost })).toBeNull();
  });

  it('switches its controls off for flagged or unverified accounts', () => {
    expect(colorizer.checksAccountFlags).toBe(true);
  });

  it('saves its result as colorized-image.webp', () => {
    expect(colorizer.result.kind === 'images' && colorizer.result.fileName(1)).toBe('colorized-image.webp');
  });
});
