// Nothing moves once it has painted (issue 18: CLS <= 0.05): the account banner, the engine notice
// and the /tokens sign-in card arrive after the session and /api/tools answer, which a slow network
// makes late; they must take room held for them, not push the page down. The answers are held back
// here so that they arrive well after the first paint, as on a phone. Each case is a page's first
// load, in a new tab of the one visitor (or of the one signed-in user).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, gotoQuiet, launchBrowser, newVisitorContext, openTab, PHONE } from './support/browser';
import { newAccountContext } from './support/visitors';

const baseUrl = inject('baseUrl');

/** How late the session and the tools list answer. */
const LATE_MS = 800;
/** Issue 18's target. */
const MAX_CLS = 0.05;

/** Holds the session's and the tools list's answers back by LATE_MS. */
const answerLate = (page: Page) =>
  page.route(/\/api\/(auth\/get-session|tools)$/, async (request) => {
    await new Promise((resolve) => setTimeout(resolve, LATE_MS));
    await request.continue();
  });

/** Sums every layout shift not caused by input from the start of the page (Lighthouse's CLS, unwindowed). */
async function layoutShiftOf(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[])
            if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 300);
      }),
  );
}

describe.runIf(inject('browserAvailable'))('layout shift', () => {
  let browser: Browser;
  let visitor: BrowserContext;
  beforeAll(async () => {
    browser = await launchBrowser();
    visitor = await newVisitorContext(browser);
  });
  afterAll(() => browser?.close());

  it.each([
    ['/background-remover', DESKTOP],
    ['/text-to-pic', PHONE],
    ['/tokens', DESKTOP],
    ['/tokens', PHONE],
  ])('%s moves nothing when the session and the tools list answer late (%o)', async (route, viewport) => {
    const { page, errors } = await openTab(visitor, viewport);
    await answerLate(page);
    await gotoQuiet(page, `${baseUrl}${route}`);
    await page
      .getByText(/Please log in/)
      .first()
      .waitFor();
    expect(await layoutShiftOf(page)).toBeLessThanOrEqual(MAX_CLS);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('moves nothing for a signed-in user either, on a tool page and on /tokens', async () => {
    const { context } = await newAccountContext(browser, baseUrl, { verified: true, prefix: 'shift' });
    // A fresh tab of the signed-in context, its answers held back before its first request, as the
    // visitors' tests do: held back on a tab that had just loaded /text-to-pic, the next page's
    // chunks twice hung 30 s in CI (stops 29 and 32; not reproduced under load locally), which is
    // Playwright's interception switched on mid-load, not what this test measures.
    const { page } = await openTab(context, DESKTOP);
    await answerLate(page);
    await gotoQuiet(page, `${baseUrl}/background-remover`);
    await page.waitForFunction(() => !document.querySelector('[data-testid="token-balance"][aria-busy]'));
    expect(await layoutShiftOf(page)).toBeLessThanOrEqual(MAX_CLS);
    await gotoQuiet(page, `${baseUrl}/tokens`);
    await page.getByTestId('tokens-balance').waitFor();
    expect(await layoutShiftOf(page)).toBeLessThanOrEqual(MAX_CLS);
    await page.context().close();
  });
});
