// The limits server and pages share, and the sentences that refuse what is over them (issue 38).
import { describe, expect, it } from 'vitest';
import {
  formatFileSize,
  IMAGE_MAX_BYTES,
  INPUT_MESSAGES,
  imageByteLimit,
  imageLimitsHint,
  imageSizeProblem,
  isSentence,
  promptProblem,
} from './input-limits';
import { describeIssue } from './tool-requests';
import { request as textToPic } from './tools/text-to-pic/request';

const parseError = (body: unknown) => {
  const result = textToPic.safeParse(body);
  if (result.success) throw new Error('parsed');
  return describeIssue(result.error, body);
};

describe('prompts', () => {
  it('are refused blank, too long once trimmed, or unstorable, in sentences', () => {
    expect(promptProblem('   \n\t')).toBe('Please describe the image you want.');
    expect(promptProblem('x'.repeat(2000))).toBeNull();
    expect(promptProblem(`  ${'x'.repeat(2000)}  `)).toBeNull();
    expect(promptProblem('x'.repeat(2143))).toBe('Your description is 2,143 characters; the limit is 2,000.');
    expect(promptProblem('a cat\u0000')).toBe(INPUT_MESSAGES.promptUnstorable);
    expect(promptProblem('a fox 🦊')).toBeNull();
  });

  it('are refused by the server’s schema with the same sentences', () => {
    expect(parseError({ prompt: '   ' })).toEqual({ field: 'prompt', reason: 'Please describe the image you want.' });
    expect(parseError({})).toEqual({ field: 'prompt', reason: 'Please describe the image you want.' });
    expect(parseError({ prompt: `  ${'x'.repeat(2143)} ` })).toEqual({
      field: 'prompt',
      reason: 'Your description is 2,143 characters; the limit is 2,000.',
    });
    expect(parseError({ prompt: 42 })).toEqual({ field: 'prompt', reason: 'must be text' });
    expect(parseError({ prompt: 'x', numOutputs: 5 })).toEqual({ field: 'numOutputs', reason: 'must be from 1 to 4' });
  });
});

describe('images', () => {
  it('have a file-size limit per tool: the spec’s 5 MB and its message, else 10 MB', () => {
    expect(imageByteLimit('metamorphose')).toMatchObject({ maxBytes: 5 * 1024 * 1024 });
    expect(imageByteLimit('background-swap').message(6_000_000)).toBe('File size must be less than 5MB');
    expect(imageByteLimit('colorizer').maxBytes).toBe(IMAGE_MAX_BYTES);
    expect(imageByteLimit('colorizer').message(45_000_000)).toBe(
      'This image is 42.9 MB; the limit is 10 MB. Please choose a smaller file.',
    );
    expect(formatFileSize(812 * 1024)).toBe('812 KB');
  });

  it('are refused for their pixels and shape as the server refuses them', () => {
    expect(imageSizeProblem('background-remover', 10000, 100)).toBe(
      'This image is 10,000 x 100 px; its longest side can be at most 10 times its shortest. Please crop it and try again.',
    );
    expect(imageSizeProblem('image-analyzer', 2000, 100)).toBeNull(); // 20:1 there
    expect(imageSizeProblem('colorizer', 4, 300)).toMatch(/shortest side must be at least 8 px/);
    expect(imageSizeProblem('colorizer', 16384, 1639)).toMatch(/longest side can be at most 16,383 px/);
    expect(imageSizeProblem('colorizer', 8000, 5001)).toMatch(/more than 40 megapixels/);
    expect(imageSizeProblem('colorizer', 8000, 5000)).toBeNull();
    expect(imageLimitsHint('colorizer')).toBe(
      'Up to 10 MB and 40 megapixels; the longest side at most 10 times the shortest.',
    );
  });
});

describe('which reasons are answered alone', () => {
  it('the user’s sentences and the spec’s 5 MB message, not a developer’s lower-case reasons', () => {
    expect(isSentence(INPUT_MESSAGES.promptEmpty)).toBe(true);
    expect(isSentence('File size must be less than 5MB')).toBe(true);
    expect(isSentence('must be 2, 4 or 6')).toBe(false);
  });
});
