// My Creations in a real browser against the real server (issue 17), at 390 and 1280 px: a job left
// running is announced elsewhere with a link back, a result survives a reload, the compare slider
// answers the keyboard, a result is sent to another tool without a download, the /creations page
// lists, shares (a signed-out visitor sees the creation only) and deletes (the file answers 404
// afterwards). Each flow runs its model once and checks both widths on that result; the cut-out's
// network (6 CPU-seconds a run here) only where the cut-out is the subject.
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, launchBrowser, newVisitorContext, openFromMenu, PHONE } from './support/browser';
import { shownBalance as balance, newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');
const CAT = path.resolve(import.meta.dirname, 'fixtures/chelsea.png');
const SMALL_CAT = path.resolve(import.meta.dirname, 'fixtures/chelsea-small.png');

describe.runIf(inject('browserAvailable'))('My Creations in the browser', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  /** A new account's page on `route` (its first and only page load), once the session has loaded. */
  async function signedInAt(viewport: { width: number; height: number }, route: string, title: string): Promise<Page> {
    const { page } = await newAccount(browser, baseUrl, { verified: true, prefix: 'creations', viewport, at: route });
    contexts.push(page.context());
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByTestId('token-balance').and(page.locator(':not([aria-busy])')).waitFor();
    await expect.poll(() => balance(page)).toBe(20);
    return page;
  }

  /** Opens a page from the menu (no page load) and waits until the session has loaded (the balance shows). */
  async function openFromMenuAt(page: Page, label: string, title: string) {
    await openFromMenu(page, label);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByTestId('token-balance').and(page.locator(':not([aria-busy])')).waitFor();
  }

  /** Waits for a tool's result as the page shows it: the before-and-after slider. */
  const resultSlider = (page: Page) => page.getByRole('slider', { name: 'Before and after' });

  /** On a tool's page: runs it on `image` and waits for the result's slider. */
  async function runTool(page: Page, image: string) {
    await page.getByTestId('image-input').setInputFiles(image);
    await page.getByRole('img', { name: `Your image: ${path.basename(image)}` }).waitFor();
    await page.getByTestId('tool-action').click();
    await resultSlider(page).waitFor({ timeout: 60_000 });
  }

  // Each flow runs its model once and is checked at both widths on that one result: the cut-out's
  // network is seconds of CPU a run whatever the photo's size, and a width changes the page, not the job.
  it('says when a job left running finishes elsewhere, links back to a result that survives a reload, and the slider answers the arrow keys (1280 and 390 px)', async () => {
    const page = await signedInAt(DESKTOP, '/background-remover', 'Background Remover');
    await page.getByTestId('image-input').setInputFiles(CAT);
    await page.getByRole('img', { name: 'Your image: chelsea.png' }).waitFor();
    await page.getByTestId('tool-action').click();
    // Leave at once: the job goes on on the server, and the shell follows it.
    await page.getByRole('link', { name: 'My Creations' }).click();
    await page.getByRole('heading', { level: 1, name: 'My Creations' }).waitFor();
    const toast = page.getByTestId('job-toast');
    await toast.waitFor({ timeout: 60_000 });
    expect(await toast.textContent()).toContain('Your Background Remover result is ready.');
    await toast.getByRole('link', { name: 'View it' }).click();
    await resultSlider(page).waitFor({ timeout: 15_000 });

    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.reload();
      const slider = resultSlider(page);
      await slider.waitFor({ timeout: 15_000 });
      expect(await slider.getAttribute('aria-valuetext'), `${viewport.width} px`).toBe('50% before, 50% after');
      await slider.focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      expect(await slider.getAttribute('aria-valuetext'), `${viewport.width} px`).toBe('52% before, 48% after');
      await page.getByRole('radio', { name: 'Black' }).check();
      await page.getByRole('button', { name: 'Zoom 1:1' }).click();
      await page.getByTestId('zoom-view').waitFor();
      // The picture at full size scrolls inside its card: the page itself never gets wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${viewport.width} px`).toBe(
        viewport.width,
      );
      await page.screenshot({ path: `.tmp/e2e-remover-${viewport.width}.png`, fullPage: true });
    }
  }, 180_000);

  it('sends a result to the Image Upscaler without a download (390 and 1280 px)', async () => {
    const page = await signedInAt(PHONE, '/background-remover', 'Background Remover');
    // The small cat: its cut-out's upscale is a second, not the full photo's many.
    await runTool(page, SMALL_CAT);
    for (const viewport of [PHONE, DESKTOP]) {
      if (viewport !== PHONE) {
        // Back to the cut-out, which the remover's page shows again.
        await page.setViewportSize(viewport);
        await openFromMenuAt(page, 'Remove Background', 'Background Remover');
        await resultSlider(page).waitFor({ timeout: 15_000 });
      }
      // One row of two buttons, neither wrapping its words (issue 38: five pills, one on three lines).
      // Both measured in one frame: the page above may still move (its images load) between two reads.
      const sendButton = page.getByRole('button', { name: 'Send to another tool' });
      const downloadButton = page.getByRole('button', { name: 'Download', exact: true });
      await downloadButton.evaluate((element) => element.setAttribute('data-measure', 'download'));
      const [download, send] = await sendButton.evaluate((element) =>
        [document.querySelector('[data-measure="download"]') as Element, element].map((button) => {
          const { x, y, width, height } = button.getBoundingClientRect();
          return { x, y, width, height };
        }),
      );
      expect(send?.y, `${viewport.width} px`).toBeCloseTo(download?.y ?? Number.NaN, 0);
      expect(download?.height).toBeLessThanOrEqual(44);
      expect(send?.height).toBeLessThanOrEqual(44);
      expect((send?.x ?? 0) + (send?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
      await sendButton.click();
      await page.getByRole('menuitem', { name: 'Send to Upscaler' }).click();
      await page.getByRole('heading', { level: 1, name: 'Image Upscaler' }).waitFor();
      await page.getByRole('img', { name: 'Your image: Result from another tool' }).waitFor();
      // The cut-out, sent, is the upscaler's input: run once (a width changes the page, not the job).
      if (viewport === PHONE) {
        const before = await balance(page);
        await page.getByTestId('tool-action').click();
        await resultSlider(page).waitFor({ timeout: 60_000 });
        await expect.poll(() => balance(page)).toBeLessThan(before ?? 0);
      }
    }
  }, 180_000);

  it('lists, shares and deletes on /creations (390 and 1280 px)', async () => {
    // Any result will do: the Image Upscaler's of the small cat is a second of CPU, the cut-out's six.
    const page = await signedInAt(PHONE, '/image-upscaler', 'Image Upscaler');
    await runTool(page, SMALL_CAT);
    await openFromMenuAt(page, 'My Creations', 'My Creations');
    // One stranger, who opens each share link the owner turns on.
    const stranger = await newVisitorContext(browser, PHONE);
    contexts.push(stranger);
    const visitor = await stranger.newPage();
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await visitor.setViewportSize(viewport);
      const card = page.getByTestId('creation').first();
      await card.waitFor();
      expect(await page.getByTestId('creations-usage').textContent()).toMatch(/used\. Uploaded images are deleted/);
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        card.getByRole('button', { name: 'Download upscaled-image.webp' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe('upscaled-image.webp');

      await card.getByRole('switch', { name: 'Share link' }).check();
      const shareUrl = await card.getByRole('textbox', { name: 'Share link' }).inputValue();
      await visitor.goto(shareUrl);
      await visitor.getByRole('heading', { level: 1, name: 'Made with Image Upscaler' }).waitFor();
      const sharedImage = await visitor.getByRole('img', { name: 'Image Upscaler result 1' }).getAttribute('src');
      expect(sharedImage).toBeTruthy();
      // The shared page downloads under the spec's name, and its first HTML carries the link preview.
      const [sharedDownload] = await Promise.all([
        visitor.waitForEvent('download'),
        visitor.getByRole('link', { name: 'Download upscaled-image.webp' }).click(),
      ]);
      expect(sharedDownload.suggestedFilename()).toBe('upscaled-image.webp');
      const firstHtml = await (await visitor.request.get(shareUrl)).text();
      expect(firstHtml).toContain(`<meta property="og:image" content="${baseUrl}${sharedImage}">`);
      expect(firstHtml).toContain('<meta name="twitter:card" content="summary_large_image">');
      await page.screenshot({ path: `.tmp/e2e-creations-${viewport.width}.png`, fullPage: true });
      await visitor.screenshot({ path: `.tmp/e2e-shared-${viewport.width}.png`, fullPage: true });

      await card.getByRole('switch', { name: 'Share link' }).uncheck();
      await expect
        .poll(async () => (await visitor.request.get(shareUrl.replace('/shared/', '/api/shared/'))).status())
        .toBe(404);
    }

    // Deleted for good at the end: the file answers 404 afterwards.
    const card = page.getByTestId('creation').first();
    const output = await card.locator('img').getAttribute('src');
    await card.getByRole('button', { name: 'Delete' }).click();
    await card.getByRole('button', { name: 'Delete for good' }).click();
    await page.getByTestId('creations-empty').waitFor();
    const fileAnswer = await page.request.get(`${baseUrl}${output?.split('?')[0]}`);
    expect(fileAnswer.status()).toBe(404);
  }, 180_000);
});
