// Issue 54 item 6 in a real browser against the real server, at 390 and 1280 px: the page the
// verification link lands on says "Email verified" (once: the flag leaves the address); Background
// Remover's "Finish" menu shows the chosen finish whole, on one image and in a batch's narrow side
// panel; a tool opened from the menu goes back to the batch this browser ran, not to one made
// through the API. (The password-change mail and the batch's order in the line: integration tests.)
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  appIsLive,
  DESKTOP,
  launchBrowser,
  newVisitorContext,
  nextVisitorAddress,
  openFromMenu,
  PHONE,
} from './support/browser';
import { apiSignUp, followMailLink } from './support/mail';
import { newAccount, uniqueEmail } from './support/visitors';

const baseUrl = inject('baseUrl');
/** Screenshots to look at by eye (git-ignored). */
const SHOTS = path.resolve(import.meta.dirname, '../.tmp/e2e-shots');
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
const VIEWPORTS = [PHONE, DESKTOP];
/** For a wait on the page: a limit that catches a hang, not slowness (expect.poll's own is 1 s). */
const WAIT = { timeout: 30_000 };

/** The chosen option's text and the room the menu gives it (its width less its padding and arrow). */
async function chosenLabelFit(select: Locator) {
  return select.evaluate(async (element: HTMLSelectElement) => {
    await document.fonts.ready;
    const style = getComputedStyle(element);
    const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
    context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
    const text = element.selectedOptions[0]?.text ?? '';
    const room = element.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
    return { text, width: Math.ceil(context.measureText(text).width), room };
  });
}

/** A small PNG of a test photo, `width` px wide (a few of them make a batch). */
async function photo(name: string, width: number) {
  const buffer = await sharp(path.join(FIXTURES, 'chelsea-small.png')).resize(width).png().toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

describe.runIf(inject('browserAvailable'))('issue 54’s smaller things in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(() => browser?.close());

  it('says "Email verified" where the verification link lands, once', async () => {
    for (const viewport of VIEWPORTS) {
      const address = nextVisitorAddress();
      const context = await newVisitorContext(browser, viewport, address);
      const page = await context.newPage();
      // Signed up on another device; the link opened here, signed out, signs this browser in.
      const email = uniqueEmail('verified');
      await apiSignUp(baseUrl, email, { headers: { 'x-forwarded-for': address } });
      await followMailLink(page, baseUrl, email, /verify/i, /verify/i);
      const notice = page.getByTestId('email-verified');
      await expect
        .poll(() => notice.textContent(), WAIT)
        .toBe('Email verified. Thank you: every tool is open to you now.');
      // Read once: the address no longer carries it, so a reload says nothing.
      await expect.poll(() => page.url(), WAIT).toBe(`${baseUrl}/text-to-pic`);
      await page.screenshot({ path: `${SHOTS}/email-verified-${viewport.width}.png` });
      await page.reload();
      await page.getByRole('heading', { level: 1, name: 'Text to Pic' }).waitFor();
      await page.getByTestId('token-balance').first().filter({ hasText: '20' }).waitFor();
      expect(await notice.count()).toBe(0);
      await context.close();
    }
  });

  it('shows the chosen finish whole in the "Finish" menu, for one image and for a batch', async () => {
    for (const viewport of VIEWPORTS) {
      const { page } = await newAccount(browser, baseUrl, {
        verified: true,
        prefix: 'finish',
        viewport,
        at: '/background-remover',
      });
      const finish = page.getByRole('combobox', { name: 'Finish' });
      const input = page.getByTestId('image-input');
      await appIsLive(page);
      await input.setInputFiles(await photo('cat.png', 160));
      await page.getByRole('img', { name: 'Your image: cat.png' }).waitFor();
      for (const views of ['one image', 'batch'] as const) {
        if (views === 'batch') {
          await input.setInputFiles([await photo('a.png', 160), await photo('b.png', 168)]);
          await page.getByRole('button', { name: /^Run \d+ images/ }).waitFor();
        }
        for (const option of await finish.locator('option').allTextContents()) {
          await finish.selectOption({ label: option });
          const fit = await chosenLabelFit(finish);
          expect(fit.width, `"${fit.text}" in the ${views} view at ${viewport.width} px`).toBeLessThanOrEqual(fit.room);
        }
        await page.screenshot({
          path: `${SHOTS}/finish-${views.replace(' ', '-')}-${viewport.width}.png`,
          fullPage: true,
        });
      }
      await page.context().close();
    }
  });

  it('opens a tool from the menu on the batch this browser ran, not on one made through the API', async () => {
    for (const viewport of VIEWPORTS) {
      const { page } = await newAccount(browser, baseUrl, { verified: true, prefix: 'resume', viewport });
      // A batch of one image made through the API with this account (another device, a script).
      const api = (route: string, data: unknown) =>
        page.request.post(`${baseUrl}${route}`, { data, headers: { origin: baseUrl } });
      const made = await api('/api/batches', { tool: 'image-upscaler', size: 1 });
      expect(made.status()).toBe(201);
      const { id: apiBatch } = (await made.json()) as { id: string };
      const tiny = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#6c5ce7' } })
        .png()
        .toBuffer();
      const sent = await api(`/api/batches/${apiBatch}/images`, {
        image: `data:image/png;base64,${tiny.toString('base64')}`,
        scale: 2,
        item: 0,
        name: 'from-a-script.png',
      });
      expect(sent.status()).toBe(202);

      await openFromMenu(page, 'Image Upscaler');
      await page.getByRole('heading', { level: 1, name: 'Image Upscaler' }).waitFor();
      await page.getByText('Drop an image here or paste it').waitFor();
      expect(new URL(page.url()).search).toBe('');
      await page.screenshot({ path: `${SHOTS}/resume-api-batch-${viewport.width}.png` });

      // A batch run on this page: the tool opened from the menu later goes back to it.
      await page.getByTestId('image-input').setInputFiles([await photo('a.png', 48), await photo('b.png', 56)]);
      await page.getByRole('button', { name: 'Run 2 images' }).click();
      await page.waitForURL(/[?&]batch=[0-9a-f-]{36}/);
      const pageBatch = new URL(page.url()).searchParams.get('batch');
      // Both sent (the server has their jobs) before the page is left, which stops the sending.
      const badges = page.getByTestId('batch-badge');
      await expect
        .poll(async () => {
          const states = await badges.allTextContents();
          return states.length === 2 && !states.some((state) => state === 'To send' || state === 'Sending');
        }, WAIT)
        .toBe(true);
      await openFromMenu(page, 'Colorizer');
      await page.getByRole('heading', { level: 1, name: 'Colorizer' }).waitFor();
      await openFromMenu(page, 'Image Upscaler');
      await expect.poll(() => new URL(page.url()).searchParams.get('batch'), WAIT).toBe(pageBatch);
      await page.getByTestId('batch-tile').first().waitFor();
      await page.screenshot({ path: `${SHOTS}/resume-page-batch-${viewport.width}.png`, fullPage: true });
      await page.context().close();
    }
  });
});
