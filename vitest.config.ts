import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One runner, several projects:
//   web          React components in happy-dom
//   unit         pure server/contract code, scripts, and brief runs of the benches (bench/benches.test.ts)
//   integration  the Hono app in-process against PGlite (cloned from a migrated template), and
//                again against PostgreSQL when TEST_DATABASE_URL is set
//   e2e          the real server process driven by Playwright in Debian chromium
const integrationOn = (dialect: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `integration-${dialect}`,
    include: ['test/integration/**/*.test.ts'],
    environment: 'node',
    env: { TEST_DB_DIALECT: dialect },
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  test: {
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['test/support/web-setup.ts'],
          // Timeouts catch hangs, not slowness: CI runs every project at once on two cores.
          testTimeout: 20_000,
        },
      },
      {
        test: {
          name: 'unit',
          include: ['src/{server,contract}/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
          // A first test that loads a model (seconds) past 5 s under load is not a failure.
          testTimeout: 30_000,
        },
      },
      integrationOn('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [integrationOn('postgres')] : []),
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          // One real server and one browser at a time: the machine has two cores.
          fileParallelism: false,
          testTimeout: 60_000,
          // A server's first start builds the web app and creates its PGlite database: minutes on a
          // busy 2-core machine (seen: 4 minutes for the database alone at load 10).
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
