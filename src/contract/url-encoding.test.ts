import { describe, expect, it } from 'vitest';
import { isWellEncoded, tryDecodeURIComponent } from './url-encoding';

describe('tryDecodeURIComponent', () => {
  it('decodes what decodeURIComponent decodes', () => {
    expect(tryDecodeURIComponent('a%20b')).toBe('a b');
    expect(tryDecodeURIComponent('100%25')).toBe('100%');
    expect(tryDecodeURIComponent('%E2%9C%93')).toBe('✓');
    expect(tryDecodeURIComponent('plain')).toBe('plain');
  });

  it('answers null instead of throwing URIError for broken percent-encoding', () => {
    for (const broken of ['%', 'ab%', '%zz', '%E0%A4%A', '%E0%A4', '%C0%80', '%ED%A0%80']) {
      expect(() => decodeURIComponent(broken)).toThrow(URIError);
      expect([broken, tryDecodeURIComponent(broken)]).toEqual([broken, null]);
      expect(isWellEncoded(broken)).toBe(false);
    }
    expect(isWellEncoded('/shared/abc?x=1%2B1')).toBe(true);
  });
});
