import { describe, expect, it } from 'vitest';
import { checksOf, messageOutcome, profileWith, REDIRECT_TO_TOKENS } from '../../../test-support/tool-fixtures';
import { SUSPENDED_MESSAGE } from '../tool-rules';
import { imageAnalyzer } from './tool';

const check = checksOf(imageAnalyzer);

describe('Image Analyzer: client rules (product-spec.md sections 5 and 7)', () => {
  it('no image does nothing, then sign-in, suspension, and too few tokens for its price sends to /tokens', () => {
    expect(imageAnalyzer.cost).toBe(1);
    const cost = imageAnalyzer.cost;
    expect(check({ profile: null, hasImage: false })).toEqual({ kind: 'ignore' });
    expect(check({ profile: null, cost })).toEqual(messageOutcome('Please log in to analyze image.'));
    expect(check({ profile: profileWith({ isDispute: true }), cost })).toEqual(messageOutcome(SUSPENDED_MESSAGE));
    expect(check({ profile: profileWith({ tokens: cost - 1 }), cost })).toEqual(REDIRECT_TO_TOKENS);
    expect(check({ profile: profileWith({ tokens: cost }), cost })).toBeNull();
  });

  it('switches its controls off for flagged or unverified accounts', () => {
    expect(imageAnalyzer.checksAccountFlags).toBe(true);
  });

  it('shows an analysis, not images', () => {
    expect(imageAnalyzer.result).toEqual({ kind: 'analysis' });
  });
});
