// Browser tests: one real server for the run (built and started as `npm start` does), and a
// check that Debian chromium is here. Without it: a loud warning and the browser tests skip,
// unless CI=true, where a missing browser fails the run.
import { rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { ensurePgliteSeed } from '../../test/support/pglite-seed';
import { CHROMIUM_PATH, chromiumInstalled } from './browser';
import { startServerProcess } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    browserAvailable: boolean;
  }
}

export default async function setup(project: TestProject) {
  const available = chromiumInstalled();
  if (!available) {
    if (process.env.CI === 'true') {
      throw new Error(
        `Chromium is missing at ${CHROMIUM_PATH}: CI requires the browser tests (apt-get install chromium-headless-shell).`,
      );
    }
    const line = '!'.repeat(78);
    console.warn(
      `\n${line}\n!! Chromium not found at ${CHROMIUM_PATH}: BROWSER TESTS ARE SKIPPED.\n!! Install it with: apt-get install -y chromium-headless-shell   (or set CHROME_PATH)\n${line}\n`,
    );
  }
  project.provide('browserAvailable', available);
  // As if behind one proxy: each browser context sends its own X-Forwarded-For (see
  // newVisitorContext), so rate limits apply per test visitor rather than to the whole run.
  await ensurePgliteSeed();
  const server = await startServerProcess({ env: { TRUST_PROXY_HOPS: '1' } });
  project.provide('baseUrl', server.url);
  return async () => {
    await server.stop();
    rmSync(server.dataDir, { recursive: true, force: true });
  };
}
