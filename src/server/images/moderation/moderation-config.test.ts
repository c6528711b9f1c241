import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';

describe('NSFW_POLICY and NSFW_THRESHOLD', () => {
  it('block explicit uploads at 0.7 by default', () => {
    expect(loadConfig({}).moderation).toEqual({ policy: 'block', threshold: 0.7 });
  });

  it('are read from the environment', () => {
    expect(loadConfig({ NSFW_POLICY: 'allow', NSFW_THRESHOLD: '0.9' }).moderation).toEqual({
      policy: 'allow',
      threshold: 0.9,
    });
  });

  it.each([
    [{ NSFW_POLICY: 'maybe' }, /NSFW_POLICY: .*"block".*"allow".*\(got "maybe"\)/],
    [{ NSFW_THRESHOLD: '1.5' }, /NSFW_THRESHOLD: must be at most 1 \(got "1.5"\)/],
    [{ NSFW_THRESHOLD: '0' }, /NSFW_THRESHOLD: must be above 0/],
    [{ NSFW_THRESHOLD: 'high' }, /NSFW_THRESHOLD: must be a number/],
  ])('refuse %o with a message naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });
});
