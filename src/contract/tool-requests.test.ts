import { describe, expect, it } from 'vitest';
import { isStorableText } from './text';
import { TOOL_REQUEST_SCHEMAS } from './tool-requests';

describe('text a prompt may hold', () => {
  it('takes any well-formed Unicode, emoji and other scripts included', () => {
    for (const text of [
      'a cat',
      'ein Bär 🐻 mit Hut',
      '日本語のテキスト',
      'tab\tand\nnewline',
      'windows\r\nline',
      '👩‍🎨',
    ]) {
      expect(isStorableText(text), text).toBe(true);
    }
    expect(TOOL_REQUEST_SCHEMAS['text-to-pic'].safeParse({ prompt: 'a fox 🦊' }).success).toBe(true);
  });

  it('refuses NUL and lone surrogates, which PostgreSQL cannot store, and the other C0 controls (issue 36)', () => {
    for (const text of [
      'a\u0000b',
      '\ud83d',
      'x\ude00y',
      '\ude00\ud83d',
      'a\u0001b',
      'bell\u0007',
      '\u001b[0m',
      'x\u000bv',
    ]) {
      expect(isStorableText(text), JSON.stringify(text)).toBe(false);
    }
    const parsed = TOOL_REQUEST_SCHEMAS['text-lab'].safeParse({ prompt: 'sign \ud83d' });
    expect(parsed.success).toBe(false);
  });
});
