import { describe, expect, it } from 'vitest';
import { checksOf, messageOutcome, profileWith, REDIRECT_TO_TOKENS } from '../../../test-support/tool-fixtures';
import { SUSPENDED_MESSAGE } from '../tool-rules';
import { textToPic } from './tool';

const check = checksOf(textToPic);

describe('Text to Pic: client rules (product-spec.md sections 5 and 7)', () => {
  it('checks sign-in, suspension, an empty balance, then the count', () => {
    expect(check({ profile: null })).toEqual(messageOutcome('Please log in to generate images.'));
    expect(check({ profile: profileWith({ isDispute: true, tokens: 0 }) })).toEqual(messageOutcome(SUSPENDED_MESSAGE));
    expect(SUSPENDED_MESSAGE).toBe('Your account has been suspended. Please contact support.');
    expect(check({ profile: profileWith({ tokens: 0 }), cost: 4 })).toEqual(REDIRECT_TO_TOKENS);
    expect(check({ profile: profileWith({ tokens: 3 }), cost: 4 })).toEqual(
      messageOutcome('Not enough tokens. Please purchase more.'),
    );
    expect(check({ profile: profileWith({ tokens: 4 }), cost: 4 })).toBeNull();
  });

  it('names downloads generated-image-N.webp, and a click on an image downloads it', () => {
    expect(textToPic.result).toMatchObject({ kind: 'images', clickToDownload: true });
    expect(textToPic.result.kind === 'images' && textToPic.result.fileName(2)).toBe('generated-image-2.webp');
  });
});
