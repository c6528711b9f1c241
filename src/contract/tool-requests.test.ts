import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { INPUT_MESSAGES } from './input-limits';
import { isStorableText, unstorableTextError } from './text';
import { unstorableTextRefusal } from './tool-requests';
import { TOOL_IDS, type ToolId } from './tools';
import { request as backgroundRemover } from './tools/background-remover/request';
import { request as colorizer } from './tools/colorizer/request';
import { request as textLab } from './tools/text-lab/request';
import { request as textToPic } from './tools/text-to-pic/request';

/** Every tool's request schema (contract/tools/<tool-id>/request.ts), by tool id. */
const REQUESTS = import.meta.glob<{ request: z.ZodObject }>('./tools/*/request.ts', { eager: true });
function requestOf(tool: ToolId): z.ZodObject {
  const module = REQUESTS[`./tools/${tool}/request.ts`];
  if (!module) throw new Error(`no request.ts for ${tool}`);
  return module.request;
}

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
    expect(textToPic.safeParse({ prompt: 'a fox 🦊' }).success).toBe(true);
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
    const parsed = textLab.safeParse({ prompt: 'sign \ud83d' });
    expect(parsed.success).toBe(false);
  });
});

describe("a tool call's text fields (issue 52)", () => {
  it('refuses a control character in any field but the images, naming the field', () => {
    for (const tool of TOOL_IDS) {
      expect(unstorableTextRefusal(requestOf(tool), { webhook: 'https://example.com/hook\u0000' }), tool).toBe(
        unstorableTextError('webhook'),
      );
      expect(unstorableTextRefusal(requestOf(tool), { userId: 'u\u001b' }), tool).toBe(unstorableTextError('userId'));
    }
    expect(unstorableTextRefusal(textToPic, { aspectRatio: '1:1\u0001' })).toBe(unstorableTextError('aspectRatio'));
    expect(unstorableTextRefusal(backgroundRemover, { background: '#ffffff\u0000' })).toBe(
      unstorableTextError('background'),
    );
  });

  it("checks the fields a route reads itself (a batch image's name) when it names them", () => {
    expect(unstorableTextRefusal(colorizer, { name: 'IMG\u0000.jpg' })).toBeNull();
    expect(unstorableTextRefusal(colorizer, { name: 'IMG\u0000.jpg' }, ['item', 'name'])).toBe(
      unstorableTextError('name'),
    );
  });

  it('leaves images to the image rule and the prompt to its own sentence', () => {
    expect(unstorableTextRefusal(colorizer, { image: 'abc\u0000' })).toBeNull();
    expect(unstorableTextRefusal(textLab, { prompt: 'sign\u0000' })).toBeNull();
    const parsed = textLab.safeParse({ prompt: 'sign\u0000' });
    expect(parsed.error?.issues[0]?.message).toBe(INPUT_MESSAGES.promptUnstorable);
  });

  it('takes tabs, line breaks and any script', () => {
    expect(
      unstorableTextRefusal(backgroundRemover, { webhook: 'https://例え.jp/フック', userId: 'a\tb\r\n' }),
    ).toBeNull();
  });
});
