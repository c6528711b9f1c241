import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { bearerCredential, hashApiKey, newApiKey } from './api-key-credential';

describe('API keys', () => {
  it('are pp_ and 43 base64url characters, kept as their SHA-256 and first 12 characters', () => {
    const made = newApiKey();
    expect(made.key).toMatch(/^pp_[A-Za-z0-9_-]{43}$/);
    expect(made.keyHash).toBe(createHash('sha256').update(made.key).digest('hex'));
    expect(made.prefix).toBe(made.key.slice(0, 12));
    expect(newApiKey().key).not.toBe(made.key);
  });

  it('are read from a Bearer header, whatever its case and spacing; anything else there is no key', () => {
    const { key, keyHash } = newApiKey();
    const of = (value: string) => bearerCredential(new Headers({ authorization: value }));
    expect(of(`Bearer ${key}`)).toEqual({ kind: 'key', keyHash });
    expect(of(`bearer   ${key} `)).toEqual({ kind: 'key', keyHash });
    for (const bad of ['Bearer', 'Bearer ', 'Bearer pp_short', `Bearer ${key}x`, `Bearer ${key.slice(3)}`])
      expect(of(bad), bad).toEqual({ kind: 'malformed' });
    expect(of('Basic dXNlcjpwYXNz')).toBeNull();
    expect(bearerCredential(new Headers())).toBeNull();
    expect(hashApiKey(key)).toBe(keyHash);
  });
});
