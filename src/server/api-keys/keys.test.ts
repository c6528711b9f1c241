import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../contract/tools';
import { keyMayCall } from './key-gate';
import { bearerCredential, hashApiKey, newApiKey } from './keys';
import { rateLimitValues } from './rate-window';

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

  it('may call the ten tools and read jobs, files, creations and the profile, and nothing else', () => {
    for (const tool of TOOLS) {
      expect(keyMayCall('POST', `/api${tool.apiPath}`), tool.apiPath).toBe(true);
      expect(keyMayCall('GET', `/api${tool.apiPath}`), tool.apiPath).toBe(false);
    }
    for (const path of [
      '/api/jobs/abc',
      '/api/files/abc',
      '/api/creations',
      '/api/profile',
      '/api/tools',
      '/api/packages',
    ])
      expect(keyMayCall('GET', path), path).toBe(true);
    for (const [method, path] of [
      ['GET', '/api/keys'],
      ['POST', '/api/keys'],
      ['DELETE', '/api/keys/abc'],
      ['GET', '/api/account'],
      ['DELETE', '/api/account'],
      ['POST', '/api/account/email'],
      ['POST', '/api/create-checkout-session'],
      ['GET', '/api/account/export'],
      ['GET', '/api/jobs'],
      ['GET', '/api/files/abc/thumbnail'],
      ['GET', '/api/creations/usage'],
      ['DELETE', '/api/creations/abc'],
      ['POST', '/api/profile/verification-email'],
      ['GET', '/api/auth/get-session'],
    ] as const)
      expect(keyMayCall(method, path), `${method} ${path}`).toBe(false);
  });
});

describe('RateLimit values', () => {
  const now = 1_000_000;
  it('are a whole window when none is open or the last one is over', () => {
    expect(rateLimitValues(null, 30, now)).toEqual({ limit: 30, remaining: 30, resetSeconds: 60 });
    expect(rateLimitValues({ count: 30, windowStart: now - 60_000 }, 30, now)).toEqual({
      limit: 30,
      remaining: 30,
      resetSeconds: 60,
    });
  });

  it('count down within the window, never below zero, and reset when it ends', () => {
    expect(rateLimitValues({ count: 4, windowStart: now - 15_500 }, 30, now)).toEqual({
      limit: 30,
      remaining: 26,
      resetSeconds: 45,
    });
    expect(rateLimitValues({ count: 31, windowStart: now - 59_900 }, 30, now)).toEqual({
      limit: 30,
      remaining: 0,
      resetSeconds: 1,
    });
  });
});
