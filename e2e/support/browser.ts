// Debian chromium driven by playwright-core (never a downloaded browser), with the flags this
// machine needs: no sandbox as root, and no background network that the closed network refuses.
// Debian's chromium-headless-shell first (Playwright's own choice for headless runs): the same
// Blink and V8 without the full browser around them, it costs a third of the CPU for a new
// context and page (0.37 against 1.27 CPU-s, docs/performance.md). Full chromium when it is the
// only one installed.
import { existsSync } from 'node:fs';
import path from 'node:path';
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Page,
  type Response as PageResponse,
  type Request,
} from 'playwright-core';

const CHROMIUM_CANDIDATES = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'] as const;
export const CHROMIUM_PATH =
  process.env.CHROME_PATH ?? CHROMIUM_CANDIDATES.find((path) => existsSync(path)) ?? CHROMIUM_CANDIDATES[0];
export const chromiumInstalled = () => existsSync(CHROMIUM_PATH);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };
/** The two widths a page is tested at, named for test titles and screenshot files: `it.each(WIDTHS)`. */
export const WIDTHS = [
  ['phone', PHONE],
  ['desktop', DESKTOP],
] as const;

/** Where the browser tests' screenshots go (not committed). */
export const SHOTS = path.resolve(import.meta.dirname, '../../.tmp/e2e-shots');

/**
 * Every test context asks for reduced motion, which the app honours (each looping animation has its
 * prefers-reduced-motion rule): a spinner or the hero icon looping while a test waits on a model run
 * repaints at 60 fps, and that renderer took CPU from the model being waited for. What the tests
 * assert does not move.
 */
export const CONTEXT_OPTIONS = { reducedMotion: 'reduce' } as const;

/** The console errors and uncaught exceptions of `page` from now on, which a test can assert are none. */
function recordErrors(page: Page): { page: Page; errors: string[] } {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, errors };
}

/** A page of its own context that records console errors and uncaught exceptions. */
export async function openPage(browser: Browser, viewport = DESKTOP): Promise<{ page: Page; errors: string[] }> {
  return recordErrors(await browser.newPage({ ...CONTEXT_OPTIONS, viewport }));
}

/** A new tab of `context` at `viewport` that records console errors and uncaught exceptions. */
export async function openTab(
  context: BrowserContext,
  viewport: { width: number; height: number },
): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  await page.setViewportSize(viewport);
  return recordErrors(page);
}

let visitors = 0;

/** A new visitor's client address, as one proxy in front would pass it on (the server trusts one hop). */
export function nextVisitorAddress(): string {
  const n = ++visitors;
  return `198.51.${(n >> 8) & 255}.${n & 255}`;
}

/** A browser context for one visitor, with an address of its own: rate limits apply per visitor. */
export function newVisitorContext(
  browser: Browser,
  viewport = DESKTOP,
  address = nextVisitorAddress(),
): Promise<BrowserContext> {
  return browser.newContext({ ...CONTEXT_OPTIONS, viewport, extraHTTPHeaders: { 'x-forwarded-for': address } });
}

/**
 * Waits until the app is live: a prerendered page shows its HTML before its scripts have hydrated
 * it, and a click before then does nothing (src/web/app/Root.tsx marks `<html data-app="live">`).
 */
export const appIsLive = (page: Page) => page.waitForSelector('html[data-app="live"]', { state: 'attached' });

/**
 * Opens a page of the app's main menu as a user does, without a page load (the phone's menu opened
 * first): for a test about a page, not about its first load.
 */
export async function openFromMenu(page: Page, label: string): Promise<void> {
  const toggle = page.getByTestId('menu-toggle');
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: label, exact: true }).click();
}

/**
 * Goes to `route` through the app's own router, as a back or forward does (history.pushState and a
 * popstate: no page load), also to a route no menu links to: for a test about a page, not about its
 * first load. Resolves once the router shows the route (or its error screen): its store updates
 * React synchronously, and the slim progress bar is active while the route's chunk loads.
 */
export async function goInApp(page: Page, route: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, route);
  await page.waitForFunction(() => !document.querySelector('.pp-route-progress[data-active="true"]'));
}

/**
 * `page.goto(url)` (its answer) until the network has been quiet for half a second (Playwright's networkidle).
 * If it never is, the error names the requests still open and how long each has been, so that a
 * timeout under a loaded CI says what it waited for instead of only "Timeout 30000ms exceeded".
 */
export async function gotoQuiet(page: Page, url: string): Promise<PageResponse | null> {
  const open = new Map<Request, number>();
  const started = Date.now();
  const opened = (request: Request) => open.set(request, Date.now());
  const closed = (request: Request) => open.delete(request);
  page.on('request', opened);
  page.on('requestfinished', closed);
  page.on('requestfailed', closed);
  try {
    return await page.goto(url, { waitUntil: 'networkidle' });
  } catch (error) {
    const now = Date.now();
    const pending = [...open].map(([request, at]) => `${request.method()} ${request.url()} (open ${now - at} ms)`);
    throw new Error(
      `${url} was not quiet after ${now - started} ms; still open: ${pending.join(', ') || 'none'}\n${String(error)}`,
      { cause: error },
    );
  } finally {
    page.off('request', opened);
    page.off('requestfinished', closed);
    page.off('requestfailed', closed);
  }
}
