// The process entry point, as an operator meets it: a bad variable stops the start with a clear message.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
// tsx compiles the server's whole import graph before main runs: seconds, more on a loaded machine.
const START = 60_000;

/** `npm start`'s entry run with these variables added, to its end. */
const startWith = (env: Record<string, string>) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: '/nonexistent/never-created', ...env },
    encoding: 'utf8',
    timeout: START,
  });

describe('npm start with an invalid configuration', () => {
  it(
    'says what is wrong and exits with code 1',
    () => {
      const result = startWith({ PORT: 'abc' });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('Invalid configuration');
      expect(result.stderr).toContain('PORT: must be a number (got "abc")');
    },
    START,
  );
});

describe('npm start in production without Stripe', () => {
  it(
    'refuses to start (exit 1) and names the variables, rather than run a checkout that credits for nothing',
    () => {
      const result = startWith({
        NODE_ENV: 'production',
        BETTER_AUTH_SECRET: 'a-production-secret-of-at-least-32-characters',
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toContain('STRIPE_SECRET_KEY');
      expect(result.stderr).toContain('UNSAFE_LOCAL_CHECKOUT_IN_PRODUCTION');
    },
    START,
  );
});
