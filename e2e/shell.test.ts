// Every screen of the spec renders in a real browser, each from its own chunk; unknown routes get
// the fallback screen; the mobile menu opens and closes at a phone's width; no page breaks the
// content security policy. One tab loads every page (each a load of its own: what a route's first
// load fetches and runs is the subject), and each load is checked once for the policy too.
import path from 'node:path';
import type { Browser, Page, Response as PageResponse } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FALLBACK_ERROR_TEXT, MENU } from '../src/contract/routes';
import { TOOLS } from '../src/contract/tools';
import { DESKTOP, gotoQuiet, launchBrowser, openPage, PHONE } from './support/browser';

const baseUrl = inject('baseUrl');

describe.runIf(inject('browserAvailable'))('the web app in chromium', () => {
  let browser: Browser;
  let page: Page;
  /** Console errors and uncaught exceptions of the page loaded last. */
  let errors: string[];
  beforeAll(async () => {
    browser = await launchBrowser();
    ({ page, errors } = await openPage(browser, DESKTOP));
    // Violations also reach the console, but the event names the directive: recorded from the start.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
  });
  afterAll(() => browser?.close());

  type Load = { response: PageResponse | null; scripts: Set<string>; cspViolations: string[] };
  /** Each desktop load of a route, for the policy's test: the pages it checks were loaded by the others. */
  const loads = new Map<string, Load>();
  const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

  /** Loads a route in the tab, as a new visit: its answer, the JavaScript files it fetched, the policy's violations. */
  async function visit(route: string, viewport = DESKTOP): Promise<Load> {
    await page.setViewportSize(viewport);
    errors.length = 0;
    const response = await gotoQuiet(page, `${baseUrl}${route}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    // Every script the load fetched, from the network or the tab's cache (a cached file still counts).
    const scripts = new Set(
      await page.evaluate(() =>
        performance
          .getEntriesByType('resource')
          .map((entry) => new URL(entry.name).pathname)
          .filter((file) => file.endsWith('.js')),
      ),
    );
    const load = { response, scripts, cspViolations: await violations() };
    if (viewport === DESKTOP) loads.set(route, load);
    return load;
  }

  it('renders the landing page', async () => {
    await visit('/');
    await expect(page.title()).resolves.toContain('Picture Palette');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Explore the tools' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('renders every tool page from its own chunk, with the sidebar and the balance slot', async () => {
    const landing = loads.get('/') ?? (await visit('/'));
    const chunksByRoute = new Map<string, Set<string>>();
    for (const tool of TOOLS) {
      const { scripts } = await visit(tool.route);
      const heading = page.getByRole('heading', { level: 1 });
      expect(await heading.textContent()).toBe(tool.title);
      expect(await page.title()).toContain(tool.title);
      const nav = page.getByRole('navigation', { name: 'Main menu' });
      expect(await nav.getByRole('link').allTextContents()).toEqual(MENU.map((item) => item.label));
      // The prerendered page carries the phone's balance; the desktop's appears once the app has taken over,
      // which a loaded machine may do after the network went quiet: wait for a visible one.
      await page.getByTestId('token-balance').filter({ visible: true }).first().waitFor({ state: 'visible' });
      expect(errors).toEqual([]);
      chunksByRoute.set(tool.route, scripts);
    }
    for (const tool of TOOLS) {
      const own = chunksByRoute.get(tool.route) ?? new Set<string>();
      const others = TOOLS.filter((t) => t !== tool).flatMap((t) => [...(chunksByRoute.get(t.route) ?? [])]);
      const unique = [...own].filter((file) => !others.includes(file) && !landing.scripts.has(file));
      expect(unique.length, `${tool.route} loads a chunk of its own`).toBeGreaterThan(0);
    }
  });

  it.each(['/tokens', '/user-settings'])('renders %s on the tool layout', async (route) => {
    await visit(route);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      route === '/tokens' ? 'Tokens' : 'User Settings',
    );
    expect(await page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
  });

  it('shows the fallback screen for an unknown route', async () => {
    await visit('/no-such-page');
    expect(await page.getByText(FALLBACK_ERROR_TEXT).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: /home/i }).first().isVisible()).toBe(true);
  });

  it('shows the not-found screen for an address with broken percent-encoding, answered 404 (issue 37)', async () => {
    await page.setViewportSize(PHONE);
    errors.length = 0;
    const response = await gotoQuiet(page, `${baseUrl}/shared/%`);
    expect(response?.status()).toBe(404);
    expect(await page.getByText(FALLBACK_ERROR_TEXT).isVisible()).toBe(true);
    expect(await page.getByTestId('error-detail').textContent()).toBe('404 Not Found');
    // The console reports the page's own 404; nothing else fails and nothing throws (was: URIError, a blank page).
    expect(errors.filter((error) => !error.includes('status of 404'))).toEqual([]);
  });

  it('opens and closes the mobile menu at a phone width', async () => {
    await visit('/text-to-pic', PHONE);
    const toggle = page.getByTestId('menu-toggle');
    const firstTool = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Text to Pic' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await firstTool.isVisible()).toBe(false);

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await firstTool.waitFor({ state: 'visible' });
    await page.getByTestId('menu-overlay').click({ position: { x: PHONE.width - 10, y: PHONE.height / 2 } });
    await firstTool.waitFor({ state: 'hidden' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    await toggle.click();
    await firstTool.waitFor({ state: 'visible' });
    await page.keyboard.press('Escape');
    await firstTool.waitFor({ state: 'hidden' });

    await toggle.click();
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Colorizer' }).click();
    await page.waitForURL(`${baseUrl}/colorizer`);
    await page.getByRole('heading', { level: 1, name: 'Colorizer' }).waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(errors).toEqual([]);
  });

  it('runs under its content security policy: no violation on any page, with an image preview', async () => {
    // Each page as its desktop load above left it, loaded here when this test runs alone.
    for (const route of ['/', '/tokens', '/user-settings', ...TOOLS.map((tool) => tool.route)]) {
      const { response, cspViolations } = loads.get(route) ?? (await visit(route));
      expect(response?.headers()['content-security-policy'], route).toContain("script-src 'self'");
      expect(cspViolations, route).toEqual([]);
    }
    // The upload preview is a data: URL; it must show.
    await visit('/background-remover');
    await page.getByTestId('image-input').setInputFiles(path.resolve(import.meta.dirname, 'fixtures/chelsea.png'));
    const preview = page.getByRole('img', { name: 'Your image: chelsea.png' });
    await preview.waitFor();
    expect(await preview.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
  });
});
