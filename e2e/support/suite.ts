// One browser for a test file's tests (launched once, closed after them: a browser start is a
// second of CPU the tests' pages need more), and the screenshot folder they write to made.
import { mkdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser, SHOTS } from './browser';

/** Call in the describe block: the returned function gives the browser inside its tests. */
export function browserForFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('The browser is launched in beforeAll: ask for it inside a test.');
    return browser;
  };
}
