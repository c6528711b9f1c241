import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// One runner, several projects:
//   web          React components in happy-dom
//   unit         pure server/contract code, scripts, and brief runs of the benches (bench/benches.test.ts);
//                unit-isolated: the few that need a module graph of their own
//   integration  the Hono app in-process against PGlite (cloned from a migrated template), and
//                again against PostgreSQL when TEST_DATABASE_URL is set (except PGLITE_ONLY);
//                integration-isolated: the few that mock a module (on PGlite)
//   e2e          the real server process driven by Playwright in Debian chromium;
//                e2e-processes: the real server's processes started, killed and clustered, no browser
// Run on PGlite only: these test HTTP, policy, mail, sign-in, storage and model behaviour whose SQL is
// the same the files run on both databases already cover (a charge, a job, a profile), or they open
// PGlite themselves (the migration tests). Everything about money, the queue, jobs, races, signals,
// sessions and the ledger runs on both.
const PGLITE_ONLY = [
  'access',
  'admin',
  'auth-enumeration',
  'creations-share',
  'fix-a-face-precheck',
  'google',
  'http-transport',
  'image-analyzer-local',
  'image-moderation',
  'job-input',
  'job-progress',
  'local-prices',
  'mail',
  'openapi',
  'openapi-client',
  'malformed-urls',
  'migration-*',
  'origin-checks',
  'private-cache',
  'result-files',
  's3-storage',
  'security-headers',
  'slow-images',
  'spa',
  'stored-image-input',
  'tools-replicate',
].map((name) => `test/integration/${name}.test.ts`);

// The real server's processes without a browser (restarts, cluster mode, dev mode): each starts its
// own servers. They run in the browser tests' Vitest after the browser tests, beside the integration
// files of the other Vitest, so that the two Vitests take about as long (decisions 065, 066).
const SERVER_PROCESS_TESTS = ['cluster', 'database-restart', 'dev-mode', 'restart'].map(
  (name) => `e2e/${name}.test.ts`,
);

const UNIT_TESTS = ['src/{server,contract}/**/*.test.ts', 'scripts/**/*.test.ts', 'bench/**/*.test.ts'];
// Files that need a module graph of their own: vi.mock replaces a module for one file, and the
// shared-runtime test checks what a fresh process has loaded.
const ISOLATED_UNIT_TESTS = [
  'src/server/inference/local/upscale/real-esrgan-fallback.test.ts',
  'src/server/inference/local/faces/shared-runtime.test.ts',
];

// Integration files that replace a module with vi.mock (the tool lists, to add a throwaway tool):
// in the shared module graph of the others they would be handed the modules already loaded, so they
// run in integration-isolated (on PGlite), each in a module graph of its own.
const ISOLATED_INTEGRATION_TESTS = ['test/integration/throwaway-tool.test.ts'];

const integrationOn = (dialect: 'pglite' | 'postgres') => ({
  extends: true as const,
  test: {
    name: `integration-${dialect}`,
    include: ['test/integration/**/*.test.ts'],
    exclude: [...ISOLATED_INTEGRATION_TESTS, ...(dialect === 'postgres' ? PGLITE_ONLY : [])],
    // Files share a worker's loaded modules: each file's own backend and database keep them apart,
    // and importing the whole server again per file was most of this tier's time. (accounts.test.ts
    // failing after other files was its own race, the Stripe customer made after sign-up, now awaited.)
    isolate: false,
    environment: 'node',
    env: { TEST_DB_DIALECT: dialect },
    globalSetup: ['test/support/global-setup.ts'],
    // Two files at a time: an integration file spends much of its time waiting (the queue's polls, a
    // provider's delay, a lease), so one at a time left a core idle (decision 064). The last group:
    // when the browser tests end first, two files at a time keep both cores busy (decision 065).
    maxWorkers: 2,
    sequence: { groupOrder: 2 },
    // Limits catch a hang, never slowness: a machine half as fast (two busy loops beside the run,
    // issue 55) must pass as this one does.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    expect: { poll: { timeout: 30_000 } },
  },
});

export default defineConfig({
  test: {
    // One file at a time (Vitest's default on two cores) but for the integration files, two at a time
    // (decision 064); npm test runs the browser tests in a second Vitest beside this one (decision 054).
    projects: [
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'happy-dom',
          setupFiles: ['test/support/web-setup.ts'],
          // Files share one worker and its happy-dom: a fresh module graph and DOM per file was three
          // quarters of this tier's CPU (127 -> 32 CPU-s); web-setup.ts resets what a test leaves behind.
          isolate: false,
          // Timeouts catch hangs, not slowness: CI runs every project at once on two cores, and a
          // machine half as fast must pass too (issue 55).
          testTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'unit',
          include: UNIT_TESTS,
          exclude: ISOLATED_UNIT_TESTS,
          environment: 'node',
          // Files share a worker's loaded modules, so a model loads once per worker, not per file.
          isolate: false,
          // A first test that loads a model (seconds) past 5 s under load is not a failure, nor a
          // database made in a hook past 10 s; a machine half as fast must pass too (issue 55).
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        test: { name: 'unit-isolated', include: ISOLATED_UNIT_TESTS, environment: 'node', testTimeout: 120_000 },
      },
      integrationOn('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [integrationOn('postgres')] : []),
      {
        ...integrationOn('pglite'),
        test: {
          ...integrationOn('pglite').test,
          name: 'integration-isolated',
          include: ISOLATED_INTEGRATION_TESTS,
          exclude: [],
          isolate: true,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          exclude: SERVER_PROCESS_TESTS,
          environment: 'node',
          globalSetup: ['e2e/support/global-setup.ts'],
          // One real server and one browser at a time: the machine has two cores.
          fileParallelism: false,
          // Files share one worker's loaded modules (playwright-core, sharp, the support files): importing
          // them again for each file was 23 s of the run's browser tests. Each file launches its own browser.
          isolate: false,
          // A hang, not slowness: a page test on a machine half as fast (issue 55); expect.poll's own
          // default (1 s) assumed a fast machine.
          testTimeout: 180_000,
          expect: { poll: { timeout: 30_000 } },
          // A server's first start builds the web app and creates its PGlite database: minutes on a
          // busy 2-core machine (seen: 4 minutes for the database alone at load 10).
          hookTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'e2e-processes',
          include: SERVER_PROCESS_TESTS,
          environment: 'node',
          globalSetup: ['e2e/support/seed-setup.ts'],
          fileParallelism: false,
          isolate: false,
          // After the browser tests (decision 066).
          sequence: { groupOrder: 1 },
          testTimeout: 300_000,
          expect: { poll: { timeout: 30_000 } },
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
