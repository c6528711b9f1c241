// The landing page in a real browser: the spec's sections in order, the gallery at desktop and phone
// widths, the FAQ's + and −, the closing call to action, and a landing route that loads no tool code.
// One tab: loaded at the desktop's width, then again at the phone's; the tests in between use the
// page as it is (only the first asks what the load fetched).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import { appIsLive, DESKTOP, launchBrowser, openPage, PHONE } from './support/browser';

const baseUrl = inject('baseUrl');

describe.runIf(inject('browserAvailable'))('landing page in the browser', () => {
  let browser: Browser;
  let opened: { page: Page; errors: string[] } | undefined;
  /** The scripts and fonts the tab's last load asked for. */
  const scripts: string[] = [];
  const fonts: string[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await opened?.page.close();
    await browser?.close();
  });

  /** The landing page at `viewport`'s width: loaded again only when the width changes. */
  async function openLanding(viewport = DESKTOP) {
    if (!opened) {
      opened = await openPage(browser, viewport);
      opened.page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
        if (request.resourceType() === 'font') fonts.push(new URL(request.url()).pathname);
      });
    } else if (opened.page.viewportSize()?.width === viewport.width) return { ...opened, scripts, fonts };
    await opened.page.setViewportSize(viewport);
    scripts.length = 0;
    fonts.length = 0;
    await opened.page.goto(baseUrl);
    await opened.page.getByRole('heading', { level: 1 }).waitFor();
    await appIsLive(opened.page);
    return { ...opened, scripts, fonts };
  }

  const galleryImages = (page: Page) => page.getByTestId('gallery').getByRole('img');

  it('stacks hero, wave, gallery, wave, features, pricing, FAQ and the closing call in order', async () => {
    const { page, errors, scripts, fonts } = await openLanding();
    const blocks = await page.locator('main > *').evaluateAll((elements) =>
      elements.flatMap((element) => {
        if (element.getAttribute('data-testid') === 'wave') return ['wave'];
        const title = element.querySelector('h1, h2')?.textContent ?? '?';
        return element.querySelector(':scope > [data-testid="wave"]') ? [title, 'wave'] : [title];
      }),
    );
    expect(blocks).toEqual([
      'Every image tool you need, in one palette.',
      'wave',
      'Made in the palette',
      'wave',
      'Make MoreFor Cheaper',
      'Plans & Pricing',
      'Frequently asked questions',
      'Your next picture is a sentence away.',
    ]);
    // Four benefits and the form in the hero; the Tokens tab and three priced packages below.
    expect(await page.locator('.pp-benefits__item').count()).toBe(4);
    await page.getByRole('button', { name: 'Continue with Email' }).waitFor();
    const pricing = page.getByRole('region', { name: 'Plans & Pricing' });
    expect(await pricing.getByRole('tab', { name: 'Tokens', selected: true }).count()).toBe(1);
    expect(await pricing.locator('.pp-package__price').allTextContents()).toEqual([
      '$5.00/package',
      '$10.00/package',
      '$20.00/package',
    ]);
    // The tools are chunks of their own: the landing route loads none of them.
    expect(scripts.some((script) => script.includes('LandingPage'))).toBe(true);
    expect(scripts.filter((script) => /ToolPage|use-tool-runner|TextToPic|SingleImageTool/.test(script))).toEqual([]);
    // One small font file: the page's characters are all in Inter's core cut (styles/font-core.ts).
    await page.evaluate(() => document.fonts.ready);
    expect(fonts).toHaveLength(1);
    expect(fonts[0]).toMatch(/^\/assets\/inter-core-[\w-]+\.woff2$/);
    expect(errors).toEqual([]);
  });

  it('alternates the hero icon between the two ends of the brand gradient', async () => {
    const { page } = await openLanding();
    // The tests' contexts ask for reduced motion (support/browser.ts); a visitor who does not sees it move.
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    onTestFinished(() => page.emulateMedia({ reducedMotion: 'reduce' }));
    const icon = page.getByTestId('hero-icon');
    const seen = new Set<string>();
    for (let i = 0; i < 40 && seen.size < 2; i++) {
      seen.add(await icon.evaluate((element) => getComputedStyle(element).color));
      await page.waitForTimeout(150);
    }
    expect(seen.size).toBeGreaterThanOrEqual(2);
  });

  it('shows the twelve sample images at 1280 px, each loading when scrolled to, as a small AVIF', async () => {
    const { page } = await openLanding(DESKTOP);
    const images = galleryImages(page);
    // The prerendered gallery is empty frames: the pictures come with the scripts.
    await images.first().waitFor();
    expect(await images.count()).toBe(12);
    const last = images.nth(11);
    await last.scrollIntoViewIfNeeded();
    // A 300 px column on a screen of one pixel per point: the 320 px AVIF is enough.
    await expect
      .poll(() => last.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0))
      .toBe(true);
    expect(await last.evaluate((image: HTMLImageElement) => new URL(image.currentSrc).pathname)).toBe(
      '/gallery/12-320.avif',
    );
    expect(await images.evaluateAll((all) => all.every((image) => (image.getAttribute('alt') ?? '').length > 10))).toBe(
      true,
    );
  });

  it('shows six of them, picked at random, at 390 px', async () => {
    const first = await openLanding(PHONE);
    await galleryImages(first.page).first().waitFor();
    expect(await galleryImages(first.page).count()).toBe(6);
    const picks = new Set<string>();
    picks.add((await galleryImages(first.page).evaluateAll((all) => all.map((i) => i.getAttribute('src')))).join());
    // Another few visits: the pick changes (the odds of five identical draws are negligible).
    for (let visit = 0; visit < 4; visit++) {
      await first.page.reload();
      await galleryImages(first.page).first().waitFor();
      const sources = await galleryImages(first.page).evaluateAll((all) => all.map((i) => i.getAttribute('src')));
      expect(new Set(sources).size).toBe(6);
      picks.add(sources.join());
    }
    expect(picks.size).toBeGreaterThan(1);
  });

  it('opens and closes the FAQ answers with + and −, from the mouse and the keyboard', async () => {
    const { page } = await openLanding(PHONE);
    const faq = page.getByRole('region', { name: 'Frequently asked questions' });
    expect(await faq.getByRole('button').count()).toBe(12);
    const question = faq.getByRole('button', { name: 'Do my tokens expire?' });
    const answer = page.getByText('Tokens do not expire, and unused tokens roll over');
    expect(await question.textContent()).toContain('+');
    expect(await answer.isVisible()).toBe(false);

    await question.click();
    expect(await question.getAttribute('aria-expanded')).toBe('true');
    expect(await question.textContent()).toContain('\u2212');
    await answer.waitFor();

    await question.focus();
    await page.keyboard.press('Enter');
    expect(await question.textContent()).toContain('+');
    await answer.waitFor({ state: 'hidden' });
  });

  it('scrolls back to the sign-in form from Create Your Pics Now and from a visitor’s Buy Tokens', async () => {
    const { page } = await openLanding(PHONE);
    const scrollY = () => page.evaluate(() => window.scrollY);
    // A smooth scroll over the whole page takes more than the poll's default second.
    const backAtTop = () => expect.poll(scrollY, { timeout: 5_000 }).toBe(0);
    const cta = page.getByRole('button', { name: 'Create Your Pics Now' });
    await cta.scrollIntoViewIfNeeded();
    expect(await scrollY()).toBeGreaterThan(2000);
    await cta.click();
    await backAtTop();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');

    const buy = page.getByRole('button', { name: 'Buy Tokens' }).first();
    await buy.scrollIntoViewIfNeeded();
    expect(await scrollY()).toBeGreaterThan(1000);
    await buy.click();
    await backAtTop();
  });
});
