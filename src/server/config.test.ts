import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, parseRole } from './config';

describe('configuration', () => {
  it('starts with embedded defaults and no variables at all', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.database).toEqual({ kind: 'pglite', dir: path.resolve('./data/pglite') });
    expect(config.role).toEqual({ web: true, worker: true });
    expect(config.providers).toEqual({ inference: 'local', payments: 'local', mail: 'outbox', storage: 'fs' });
  });

  it.each([
    ['PORT', 'abc', 'PORT: must be a number (got "abc")'],
    ['PORT', '70000', 'PORT: must be between 1 and 65535 (got "70000")'],
    ['PORT', '3.5', 'PORT: must be a whole number (got "3.5")'],
    ['DATABASE_URL', 'mysql://x', 'DATABASE_URL: must start with postgres:// or postgresql:// (got "mysql://x")'],
    ['APP_URL', 'not a url', 'APP_URL: must be a URL such as https://app.example.com (got "not a url")'],
    ['LOG_LEVEL', 'loud', 'LOG_LEVEL:'],
  ])('rejects %s=%s with a message that names it', (key, value, message) => {
    const attempt = () => loadConfig({ [key]: value });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(message);
  });

  it('uses PostgreSQL when DATABASE_URL is set, and an empty value means unset', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/db',
    });
    expect(loadConfig({ DATABASE_URL: '' }).database.kind).toBe('pglite');
  });

  it('splits web and worker only on a shared PostgreSQL', () => {
    expect(parseRole(['--web'])).toEqual({ web: true, worker: false });
    expect(parseRole(['--worker'])).toEqual({ web: false, worker: true });
    expect(parseRole([])).toEqual({ web: true, worker: true });
    expect(() => loadConfig({}, ['--worker'])).toThrow('set DATABASE_URL');
    expect(loadConfig({ DATABASE_URL: 'postgres://h/db' }, ['--worker']).role).toEqual({ web: false, worker: true });
  });

  it('selects each external provider from its variable', () => {
    const config = loadConfig({ REPLICATE_API_TOKEN: 'r8_x', STRIPE_SECRET_KEY: 'sk_x', SMTP_URL: 'smtp://h:25' });
    expect(config.providers).toMatchObject({ inference: 'replicate', payments: 'stripe', mail: 'smtp' });
  });
});
