// The one form of every tool's image field (issue 52): the file's base64, or a data URL carrying it.
import { describe, expect, it } from 'vitest';
import { imagePayload } from './image-input';

const BASE64 = 'iVBORw0KGgo=';

describe('imagePayload', () => {
  it('takes bare base64 and a base64 data URL of any media type, parameters included', () => {
    for (const value of [
      BASE64,
      `data:image/png;base64,${BASE64}`,
      `data:image/jpeg;name=IMG_0412.jpg;base64,${BASE64}`,
      `data:;base64,${BASE64}`,
      `data:application/octet-stream;base64,${BASE64}`,
    ]) {
      expect(imagePayload(value), value).toBe(BASE64);
    }
  });

  it('drops the line breaks of an encoder that wraps its lines', () => {
    expect(imagePayload(`data:image/png;base64,iVBORw0K\r\nGgo=`)).toBe(BASE64);
  });

  it('refuses anything else', () => {
    for (const value of [
      'hello',
      `data:image/png,${BASE64}`,
      `${BASE64}!`,
      `${BASE64}\u0000`,
      'iVBORw0KGgo',
      'https://example.com/photo.jpg',
      '/api/files/not-a-file',
      `data:image/png;base64;charset=utf-8,${BASE64}`,
    ]) {
      expect(imagePayload(value), JSON.stringify(value)).toBeNull();
    }
  });
});
