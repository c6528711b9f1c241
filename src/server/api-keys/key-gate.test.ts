import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../contract/tools';
import { keyMayCall } from './key-gate';

describe('API keys', () => {
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
