// What only a real layout shows of the tool shell (issue 38): the token balance is in view without
// scrolling at every desktop size, the phone's header hides what scrolls under it (light and dark),
// and a click in the menu leaves focus on the new page's heading, with no ring. One tab for the file:
// it moves between the pages through the menu, as a user does, and is resized between the sizes;
// only the focus test loads a page, as it is about the first load too.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MENU } from '../src/contract/routes';
import { appIsLive, CONTEXT_OPTIONS, gotoQuiet, launchBrowser, openFromMenu, PHONE } from './support/browser';

const baseUrl = inject('baseUrl');

/** Desktop windows from the issue: a laptop, a short one, the smallest desktop layout's neighbour. */
const DESKTOP_SIZES = [
  { width: 1280, height: 800 },
  { width: 1280, height: 600 },
  { width: 1024, height: 700 },
];

describe.runIf(inject('browserAvailable'))('the tool shell’s layout', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ ...CONTEXT_OPTIONS, colorScheme: 'light' });
  });
  afterAll(() => browser?.close());

  /** Loads `route` afresh at this size and colour scheme. */
  async function load(route: string, viewport: { width: number; height: number }, colorScheme: 'light' | 'dark') {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme });
    await gotoQuiet(page, `${baseUrl}${route}`);
    await appIsLive(page);
  }

  /** Shows `route` at this size and colour scheme: through the menu's link when the tab is in the app. */
  async function open(route: string, viewport: { width: number; height: number }, colorScheme: 'light' | 'dark') {
    if (!page.url().startsWith(`${baseUrl}/`)) return load(route, viewport, colorScheme);
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme });
    if (new URL(page.url()).pathname === route) return;
    const item = MENU.find((entry) => entry.to === route);
    if (!item) throw new Error(`${route} is not in the menu`);
    await openFromMenu(page, item.label);
    await page.waitForURL(`${baseUrl}${route}`);
    await page.waitForFunction(() => !document.querySelector('.pp-route-progress[data-active="true"]'));
  }

  /** The visible balance's box: the prerendered phone one, then the desktop one after hydration. */
  async function balanceBox(page: Page) {
    const balance = page.getByTestId('token-balance').filter({ visible: true }).first();
    await balance.waitFor({ state: 'visible' });
    return balance.boundingBox();
  }

  for (const viewport of DESKTOP_SIZES) {
    it(`shows the balance without scrolling at ${viewport.width}x${viewport.height}`, async () => {
      for (const route of ['/text-to-pic', '/background-remover', '/tokens', '/user-settings']) {
        await open(route, viewport, 'light');
        const box = await balanceBox(page);
        expect(box, route).not.toBeNull();
        expect(box?.y, route).toBeGreaterThanOrEqual(0);
        expect((box?.y ?? 0) + (box?.height ?? 0), route).toBeLessThanOrEqual(viewport.height);
        // The page itself scrolled: the sidebar does not move, the balance stays.
        await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
        expect(await balanceBox(page), route).toEqual(box);
        // Every menu item can still be reached: the menu scrolls within the sidebar when it must.
        const last = page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'User Settings' });
        await last.scrollIntoViewIfNeeded();
        const lastBox = await last.boundingBox();
        expect((lastBox?.y ?? 0) + (lastBox?.height ?? 0), route).toBeLessThanOrEqual(box?.y ?? 0);
      }
    });
  }

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`keeps the phone's header opaque over scrolled content (${colorScheme})`, async () => {
      await open('/text-to-pic', PHONE, colorScheme);
      await page.evaluate(() => window.scrollTo(0, 300));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
      const look = await page.evaluate(() => {
        const bar = document.querySelector('.pp-mobile-bar') as HTMLElement;
        const style = getComputedStyle(bar);
        const { bottom } = bar.getBoundingClientRect();
        // What is under a point of the header between the logo and the balance: the header's own.
        const hit = document.elementFromPoint(window.innerWidth / 2, bottom / 2);
        return {
          background: style.backgroundColor,
          opacity: style.opacity,
          hitInHeader: Boolean(hit?.closest('.pp-app-header')),
        };
      });
      // rgb(...) has no alpha: fully opaque (rgba(..., a) would be see-through).
      expect(look.background).toMatch(/^rgb\(\d+, \d+, \d+\)$/);
      expect(look.opacity).toBe('1');
      expect(look.hitInHeader).toBe(true);
      if (colorScheme === 'dark') expect(look.background).not.toBe('rgb(250, 250, 250)');
    });
  }

  it('puts focus on the new page’s heading after a click in the menu, with no ring, and the next Tab in the page', async () => {
    await load('/text-to-pic', { width: 1280, height: 800 }, 'light');
    // The first load leaves focus alone.
    expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('BODY');
    await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Remove Background' }).click();
    const heading = page.getByRole('heading', { level: 1, name: 'Background Remover' });
    await heading.waitFor();
    await expect.poll(() => heading.evaluate((h) => h === document.activeElement)).toBe(true);
    expect(await heading.evaluate((h) => getComputedStyle(h).outlineStyle)).toBe('none');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
  });
});
