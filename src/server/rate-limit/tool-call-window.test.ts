import { describe, expect, it } from 'vitest';
import { rateLimitValues, verdictOf } from './tool-call-window';

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

describe('a call counted in the window', () => {
  const now = 1_000_000;
  it('goes on up to the limit, and past it hears when the window ends', () => {
    expect(verdictOf({ count: 30, windowStart: now - 15_500 }, 30, now)).toEqual({ allowed: true });
    expect(verdictOf({ count: 31, windowStart: now - 15_500 }, 30, now)).toEqual({
      allowed: false,
      retryAfterSeconds: 45,
    });
  });
});
