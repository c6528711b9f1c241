import { describe, expect, it } from 'vitest';
import type { Profile } from '../../../contract/accounts';
import { TOOLS, type ToolId } from '../../../contract/tools';
import { PROFILE } from '../../test-support/fake-api';
import { type CheckContext, DOWNLOAD_NAMES, firstFailingCheck, SUSPENDED_MESSAGE } from './tool-rules';

const profile = (overrides: Partial<Profile> = {}): Profile => ({ ...PROFILE, ...overrides });
const check = (tool: ToolId, context: Partial<CheckContext>) =>
  firstFailingCheck(tool, { profile: profile(), cost: 1, hasImage: true, ...context });
const message = (text: string) => ({ kind: 'message', text });
const REDIRECT = { kind: 'redirect-to-tokens' };

describe('submit checks, in the order of product-spec.md section 5', () => {
  it('Text to Pic: sign-in, suspension, an empty balance, then the count', () => {
    expect(check('text-to-pic', { profile: null })).toEqual(message('Please log in to generate images.'));
    expect(check('text-to-pic', { profile: profile({ isDispute: true, tokens: 0 }) })).toEqual(
      message(SUSPENDED_MESSAGE),
    );
    expect(SUSPENDED_MESSAGE).toBe('Your account has been suspended. Please contact support.');
    expect(check('text-to-pic', { profile: profile({ tokens: 0 }), cost: 4 })).toEqual(REDIRECT);
    expect(check('text-to-pic', { profile: profile({ tokens: 3 }), cost: 4 })).toEqual(
      message('Not enough tokens. Please purchase more.'),
    );
    expect(check('text-to-pic', { profile: profile({ tokens: 4 }), cost: 4 })).toBeNull();
  });

  it('Metamorphose: sign-in, 9 tokens per image, then the reference image; no flag checks', () => {
    expect(check('metamorphose', { profile: null, hasImage: false })).toEqual(
      message('Please log in to generate images'),
    );
    expect(check('metamorphose', { profile: profile({ tokens: 8 }), cost: 9, hasImage: false })).toEqual(
      message('Not enough tokens available'),
    );
    expect(check('metamorphose', { cost: 9, hasImage: false })).toEqual(message('Please upload a reference image'));
    expect(
      check('metamorphose', { profile: profile({ isFraudulent: true, emailVerified: false }), cost: 9 }),
    ).toBeNull();
  });

  it('Background Swap: sign-in, 25 tokens per image, then the image', () => {
    expect(check('background-swap', { profile: null, hasImage: false })).toEqual(
      message('Please log in to swap backgrounds'),
    );
    expect(check('background-swap', { profile: profile({ tokens: 49 }), cost: 50, hasImage: false })).toEqual(
      message('Not enough tokens available'),
    );
    expect(check('background-swap', { cost: 20, hasImage: false })).toEqual(message('Please upload an image'));
  });

  it('Text Lab: sign-in, suspension, an empty balance, then 15 tokens', () => {
    expect(check('text-lab', { profile: null })).toEqual(message('Please log in to use Text Lab.'));
    expect(check('text-lab', { profile: profile({ isFraudulent: true }) })).toEqual(message(SUSPENDED_MESSAGE));
    expect(check('text-lab', { profile: profile({ tokens: 0 }), cost: 15 })).toEqual(REDIRECT);
    expect(check('text-lab', { profile: profile({ tokens: 14 }), cost: 15 })).toEqual(
      message('Not enough tokens. Please purchase more.'),
    );
  });

  const singleImage: [ToolId, string, number][] = [
    ['image-upscaler', 'Please log in to upscale images.', 1],
    ['background-remover', 'Please log in to remove background.', 2],
    ['colorizer', 'Please log in to colorize images.', 6],
    ['fix-a-face', 'Please log in to fix faces.', 2],
    ['creative-upscaler', 'Please log in to upscale images.', 70],
    ['image-analyzer', 'Please log in to analyze image.', 1],
  ];

  it.each(singleImage)(
    '%s: no image does nothing, then sign-in, suspension and the minimum balance',
    (tool, login, minimum) => {
      expect(check(tool, { profile: null, hasImage: false })).toEqual({ kind: 'ignore' });
      expect(check(tool, { profile: null })).toEqual(message(login));
      expect(check(tool, { profile: profile({ isDispute: true }) })).toEqual(message(SUSPENDED_MESSAGE));
      expect(check(tool, { profile: profile({ tokens: minimum - 1 }) })).toEqual(REDIRECT);
      expect(check(tool, { profile: profile({ tokens: minimum }) })).toBeNull();
    },
  );

  it('single-image tools need what the table charges', () => {
    for (const [tool, , minimum] of singleImage) {
      expect(TOOLS.find((t) => t.id === tool)?.cost).toBe(minimum);
    }
  });
});

describe('download names (section 7)', () => {
  it('names files as the spec does', () => {
    expect(DOWNLOAD_NAMES['text-to-pic'](2)).toBe('generated-image-2.webp');
    expect(DOWNLOAD_NAMES['image-upscaler'](1)).toBe('upscaled-image.webp');
    expect(DOWNLOAD_NAMES.metamorphose(1)).toBe('metamorphose-1.webp');
    expect(DOWNLOAD_NAMES['background-remover'](1)).toBe('background-removed.png');
    expect(DOWNLOAD_NAMES.colorizer(1)).toBe('colorized-image.webp');
    expect(DOWNLOAD_NAMES['creative-upscaler'](1)).toBe('creative-upscaled.webp');
    expect(DOWNLOAD_NAMES['fix-a-face'](1)).toBe('fixed-face.webp');
    expect(DOWNLOAD_NAMES['text-lab'](3)).toBe('textlab-image-3.webp');
    expect(DOWNLOAD_NAMES['background-swap'](4)).toBe('background-swap-4.webp');
  });
});
