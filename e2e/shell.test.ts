// Every screen of the spec renders in a real browser, each from its own chunk; unknown routes get
// the fallback screen; the mobile menu opens and closes at a phone's width.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FALLBACK_ERROR_TEXT, MENU } from '../src/contract/routes';
import { TOOLS } from '../src/contract/tools';
import { DESKTOP, gotoQuiet, launchBrowser, openPage, PHONE } from './support/browser';

const baseUrl = inject('baseUrl');

describe.runIf(inject('browserAvailable'))('the web app in chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  /** Loads a route in a fresh page; returns the JavaScript files it fetched. */
  async function visit(route: string, viewport = DESKTOP) {
    const { page, errors } = await openPage(browser, viewport);
    const scripts = new Set<string>();
    page.on('response', (response) => {
      if (response.url().endsWith('.js')) scripts.add(new URL(response.url()).pathname);
    });
    await gotoQuiet(page, `${baseUrl}${route}`);
    return { page, errors, scripts };
  }

  it('renders the landing page', async () => {
    const { page, errors } = await visit('/');
    await expect(page.title()).resolves.toContain('Picture Palette');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Explore the tools' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders every tool page from its own chunk, with the sidebar and the balance slot', async () => {
    const landing = await visit('/');
    await landing.page.close();
    const chunksByRoute = new Map<string, Set<string>>();
    for (const tool of TOOLS) {
      const { page, errors, scripts } = await visit(tool.route);
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
      await page.close();
    }
    for (const tool of TOOLS) {
      const own = chunksByRoute.get(tool.route) ?? new Set<string>();
      const others = TOOLS.filter((t) => t !== tool).flatMap((t) => [...(chunksByRoute.get(t.route) ?? [])]);
      const unique = [...own].filter((file) => !others.includes(file) && !landing.scripts.has(file));
      expect(unique.length, `${tool.route} loads a chunk of its own`).toBeGreaterThan(0);
    }
  });

  it.each(['/tokens', '/user-settings'])('renders %s on the tool layout', async (route) => {
    const { page, errors } = await visit(route);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
      route === '/tokens' ? 'Tokens' : 'User Settings',
    );
    expect(await page.getByRole('navigation', { name: 'Main menu' }).isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('shows the fallback screen for an unknown route', async () => {
    const { page } = await visit('/no-such-page');
    expect(await page.getByText(FALLBACK_ERROR_TEXT).isVisible()).toBe(true);
    expect(await page.getByRole('link', { name: /home/i }).first().isVisible()).toBe(true);
    await page.close();
  });

  it('shows the not-found screen for an address with broken percent-encoding, answered 404 (issue 37)', async () => {
    const { page, errors } = await openPage(browser, PHONE);
    const response = await gotoQuiet(page, `${baseUrl}/shared/%`);
    expect(response?.status()).toBe(404);
    expect(await page.getByText(FALLBACK_ERROR_TEXT).isVisible()).toBe(true);
    expect(await page.getByTestId('error-detail').textContent()).toBe('404 Not Found');
    // The console reports the page's own 404; nothing else fails and nothing throws (was: URIError, a blank page).
    expect(errors.filter((error) => !error.includes('status of 404'))).toEqual([]);
    await page.close();
  });

  it('opens and closes the mobile menu at a phone width', async () => {
    const { page, errors } = await visit('/text-to-pic', PHONE);
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
    await page.close();
  });

  it('runs under its content security policy: no violation on any page, with an image preview', async () => {
    const { page, errors } = await openPage(browser, DESKTOP);
    // Violations also reach the console, but the event names the directive: recorded from the start.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    const violations = () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
    for (const route of ['/', '/tokens', '/user-settings', ...TOOLS.map((tool) => tool.route)]) {
      const response = await gotoQuiet(page, `${baseUrl}${route}`);
      expect(response?.headers()['content-security-policy'], route).toContain("script-src 'self'");
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      expect(await violations(), route).toEqual([]);
    }
    // The upload preview is a data: URL; it must show.
    await gotoQuiet(page, `${baseUrl}/background-remover`);
    await page.getByTestId('image-input').setInputFiles(path.resolve(import.meta.dirname, 'fixtures/chelsea.png'));
    const preview = page.getByRole('img', { name: 'Your image: chelsea.png' });
    await preview.waitFor();
    expect(await preview.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});
