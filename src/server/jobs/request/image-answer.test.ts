import { describe, expect, it } from 'vitest';
import { toolById } from '../../../contract/tools';
import { parseAccept, toolAnswerFormat } from './image-answer';

const remover = toolById('background-remover');
const analyzer = toolById('image-analyzer');

describe('toolAnswerFormat: JSON or the image, from Accept', () => {
  it.each([
    [undefined, 'json'],
    ['', 'json'],
    ['*/*', 'json'],
    ['application/json', 'json'],
    ['text/html', 'json'],
    ['application/*', 'json'],
    ['image/*', 'image'],
    ['image/png', 'image'],
    ['IMAGE/WEBP', 'image'],
    ['image/jpeg', 'image'],
    ['image/webp, */*;q=0.8', 'image'],
    ['image/png, */*', 'image'],
    ['image/png, application/json', 'image'],
    ['application/json, image/png', 'json'],
    ['image/png;q=0.5, application/json', 'json'],
    ['application/json;q=0.2, image/*', 'image'],
    ['image/png;q=0', 'json'],
    ['image/png;q=banana', 'image'],
  ] as const)('Accept %j answers %s', (accept, format) => {
    expect(toolAnswerFormat(accept, remover)).toBe(format);
  });

  it('refuses an analysis to a client that takes images only, and answers JSON when it takes JSON too', () => {
    expect(toolAnswerFormat('image/*', analyzer)).toBe('not-acceptable');
    expect(toolAnswerFormat('image/png, application/json;q=0', analyzer)).toBe('not-acceptable');
    expect(toolAnswerFormat('image/png, application/json', analyzer)).toBe('json');
    expect(toolAnswerFormat('image/png, */*;q=0.1', analyzer)).toBe('json');
    expect(toolAnswerFormat('application/json', analyzer)).toBe('json');
    expect(toolAnswerFormat(undefined, analyzer)).toBe('json');
  });

  it('reads ranges with their weights and drops what is not a media range', () => {
    expect(parseAccept(' image/png ; q=0.5 , nonsense, */*')).toEqual([
      { type: 'image/png', q: 0.5, index: 0 },
      { type: '*/*', q: 1, index: 2 },
    ]);
  });
});
