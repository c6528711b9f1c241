import { describe, expect, it } from 'vitest';
import { checksOf, messageOutcome, profileWith } from '../../../test-support/tool-fixtures';
import { metamorphose } from './tool';

const check = checksOf(metamorphose);

describe('Metamorphose: client rules (product-spec.md sections 5 to 7)', () => {
  it('checks sign-in, 9 tokens per image, then the reference image; no flag checks', () => {
    expect(check({ profile: null, hasImage: false })).toEqual(messageOutcome('Please log in to generate images'));
    expect(check({ profile: profileWith({ tokens: 8 }), cost: 9, hasImage: false })).toEqual(
      messageOutcome('Not enough tokens available'),
    );
    expect(check({ cost: 9, hasImage: false })).toEqual(messageOutcome('Please upload a reference image'));
    expect(check({ profile: profileWith({ isFraudulent: true, emailVerified: false }), cost: 9 })).toBeNull();
    expect(metamorphose.checksAccountFlags).toBe(false);
  });

  it('names downloads metamorphose-N.webp', () => {
    expect(metamorphose.result.kind === 'images' && metamorphose.result.fileName(1)).toBe('metamorphose-1.webp');
  });
});
