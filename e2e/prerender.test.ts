// Prerendered pages (decision 021): the HTML the server sends already holds the page (its heading,
// the tool layout's menu), paints before any script has run, and hydrates without a mismatch (React
// reports one as error #418 in the console) for a visitor and for a signed-in user, at both widths.
// Every load here is a page's first: the HTML and its hydration are the subject. One visitor and one
// signed-in user (signed up once) open a tab for each test.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ROUTES } from '../src/contract/routes';
import { TOOLS } from '../src/contract/tools';
import {
  appIsLive,
  CONTEXT_OPTIONS,
  DESKTOP,
  launchBrowser,
  newVisitorContext,
  openTab,
  PHONE,
} from './support/browser';
import { newAccountContext } from './support/visitors';

const baseUrl = inject('baseUrl');

const PAGES = [ROUTES.home, ROUTES.tokens, ...TOOLS.map((tool) => tool.route), ROUTES.creations, '/terms'];

describe.runIf(inject('browserAvailable'))('prerendered pages', () => {
  let browser: Browser;
  let visitor: BrowserContext | undefined;
  let member: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await visitor?.close();
    await member?.close();
    await browser?.close();
  });

  /**
   * A new tab of the visitor or of the signed-in user (a verified account, made on first use) at
   * `viewport`, which records console errors and uncaught exceptions: React reports a mismatch there.
   */
  async function tab(who: 'visitor' | 'member', viewport: { width: number; height: number }) {
    let context: BrowserContext;
    if (who === 'visitor') context = visitor ??= await newVisitorContext(browser, PHONE);
    else
      context = member ??= (await newAccountContext(browser, baseUrl, { verified: true, prefix: 'prerender' })).context;
    return openTab(context, viewport);
  }

  /** Loads `route` in `page` until it is live: hydrated, with its deferred parts (src/web/app/Root.tsx). */
  async function loadLive(page: Page, route: string) {
    const response = await page.goto(`${baseUrl}${route}`);
    await appIsLive(page);
    return response;
  }

  it('sends each page as HTML with its heading, which shows with scripts off', async () => {
    for (const route of PAGES) {
      const response = await fetch(`${baseUrl}${route}`);
      const html = await response.text();
      expect(html, route).toContain('<div id="root" data-prerendered data-signed-in="false"');
      expect(html, route).toMatch(/<h1[^>]*>/);
    }
    const context = await browser.newContext({ ...CONTEXT_OPTIONS, javaScriptEnabled: false, viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/background-remover`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Background Remover');
    await expect(page.getByRole('button', { name: 'Open menu' }).isVisible()).resolves.toBe(true);
    // The tab says which page it is before any script has run.
    await expect(page.title()).resolves.toBe('Background Remover · Picture Palette');
    // No session cookie came, so the visitor is signed out for certain: what a visitor is told is
    // in the first paint, not held back until the session answers (it is the page's largest text).
    const banner = page.getByTestId('account-banner');
    await expect(banner.textContent()).resolves.toBe(
      'Please log in to use the Background Remover. Sign in or create an account',
    );
    await expect(banner.isVisible()).resolves.toBe(true);
    await page.goto(`${baseUrl}${ROUTES.tokens}`);
    for (const [route, heading] of [
      [ROUTES.tokens, 'Log in to buy tokens'],
      [ROUTES.creations, 'Sign in to see your creations'],
      [ROUTES.userSettings, 'Sign in to see your account'],
    ] as const) {
      await page.goto(`${baseUrl}${route}`);
      await expect(page.getByRole('heading', { name: heading }).isVisible(), route).resolves.toBe(true);
    }
    await context.close();
  });

  it.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ])('hydrates every page without a mismatch for a visitor (%s)', async (_name, viewport) => {
    // One tab, each page loaded into it whole (a navigation, not the app's own links): every load
    // hydrates its page from the server's HTML.
    const { page, errors } = await tab('visitor', viewport);
    for (const route of PAGES) {
      await loadLive(page, route);
      expect(errors, route).toEqual([]);
    }
    await page.close();
  });

  it('hydrates the landing page below the fold from a chunk of its own, never taking its HTML away', async () => {
    // A visitor, then a signed-in user (whose session answer arrives while the page hydrates).
    const pages = [(await tab('visitor', PHONE)).page, (await tab('member', PHONE)).page];
    for (const page of pages) {
      // Every section element React removes from the document: a part that lost its HTML while its
      // chunk was on the way would show nothing there for a moment.
      await page.addInitScript(() => {
        const win = window as unknown as { removedSections: number };
        win.removedSections = 0;
        new MutationObserver((records) => {
          for (const record of records)
            for (const node of record.removedNodes) if (node.nodeName === 'SECTION') win.removedSections++;
        }).observe(document, { childList: true, subtree: true });
      });
      const scripts: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
      });
      const response = await page.goto(baseUrl);
      const html = (await response?.text()) ?? '';
      await appIsLive(page);
      // The HTML holds the whole page, but the first scripts do not: the sections under the hero
      // come in a chunk the page does not preload, fetched once it is alive.
      expect(html).toContain('Frequently asked questions');
      expect(html).not.toMatch(/BelowTheFold[^"]*\.js/);
      expect(scripts.some((script) => script.includes('BelowTheFold'))).toBe(true);
      expect(await page.evaluate(() => (window as unknown as { removedSections: number }).removedSections)).toBe(0);
      // Live means every part is interactive: the FAQ opens at the first click.
      const question = page.getByRole('button', { name: 'Do my tokens expire?' });
      await question.click();
      expect(await question.getAttribute('aria-expanded')).toBe('true');
    }
    for (const page of pages) await page.close();
  });

  it('lets a signed-in user who leaves the landing page before its lower sections come see the session', async () => {
    const { page } = await tab('member', DESKTOP);
    // The sections below the fold never arrive: the session's answer waits for them only while they
    // are on the page.
    await page.route(/BelowTheFold-[\w-]+\.js$/, () => {});
    const asked = page.waitForRequest(/BelowTheFold-[\w-]+\.js$/);
    await page.goto(baseUrl);
    await asked; // the page has hydrated and asked for them
    await page.getByRole('link', { name: 'Explore the tools' }).click();
    await page.waitForURL(`${baseUrl}/text-to-pic`);
    await expect.poll(() => page.getByTestId('token-balance').first().textContent()).toContain('20');
    await page.close();
  });

  it('hydrates without a mismatch for a signed-in user', async () => {
    const { page, errors } = await tab('member', PHONE);
    for (const route of [ROUTES.tokens, '/background-remover', ROUTES.home, ROUTES.creations]) {
      const response = await loadLive(page, route);
      expect(await response?.text(), route).toContain('data-signed-in="true"');
      expect(errors, route).toEqual([]);
    }
    await page.close();
  });
});
