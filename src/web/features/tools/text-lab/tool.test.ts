import { describe, expect, it } from 'vitest';
import { checksOf, messageOutcome, profileWith, REDIRECT_TO_TOKENS } from '../../../test-support/tool-fixtures';
import { SUSPENDED_MESSAGE } from '../tool-rules';
import { textLab } from './tool';

const check = checksOf(textLab);

describe('Text Lab: client rules (product-spec.md sections 5 and 7)', () => {
  it('checks sign-in, suspension, an empty balance, then 15 tokens', () => {
    expect(check({ profile: null })).toEqual(messageOutcome('Please log in to use Text Lab.'));
    expect(check({ profile: profileWith({ isFraudulent: true }) })).toEqual(messageOutcome(SUSPENDED_MESSAGE));
    expect(check({ profile: profileWith({ tokens: 0 }), cost: 15 })).toEqual(REDIRECT_TO_TOKENS);
    expect(check({ profile: profileWith({ tokens: 14 }), cost: 15 })).toEqual(
      messageOutcome('Not enough tokens. Please purchase more.'),
    );
  });

  it('names downloads textlab-image-N.webp', () => {
    expect(textLab.result.kind === 'images' && textLab.result.fileName(3)).toBe('textlab-image-3.webp');
  });
});
