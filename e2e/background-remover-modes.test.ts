// Issue 58 item 3 in a real browser against the real server and its local engine (ISNet's real
// cut-out), at phone (390 px) and desktop (1280 px) widths: Background Remover's "Result" choice,
// Blur (with its strength) and Mask, each run to a file that downloads in its own
// format: the blurred photo a WebP without alpha at the photo's size, the mask a one-channel PNG.
// Screenshots go to .tmp/e2e-shots/ (not committed).
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { SHOTS, WIDTHS } from './support/browser';
import { browserForFile } from './support/suite';
import { chooseImage, downloadFrom, pageReady } from './support/tool-page';
import { shownBalance as balance, newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');
const SMALL_CAT = path.resolve(import.meta.dirname, 'fixtures/chelsea-small.png');
/** A local model on a machine the other tests keep busy: a limit catches a hang, not slowness. */
const RUN_WAIT_MS = 180_000;

describe.runIf(inject('browserAvailable'))("Background Remover's modes (issue 58)", () => {
  const browser = browserForFile();

  /** Runs the page's action and downloads the result: its suggested name and bytes. */
  async function runAndDownload(page: Page) {
    await page.getByRole('button', { name: /^Remove Background/ }).click();
    const button = page.getByRole('button', { name: 'Download', exact: true });
    await button.waitFor({ timeout: RUN_WAIT_MS });
    return downloadFrom(page, button);
  }

  it.each(WIDTHS)(
    'blurs the background, then hands back the mask (%s)',
    async (label, viewport) => {
      const { page } = await newAccount(browser(), baseUrl, { verified: true, viewport, at: '/background-remover' });
      const before = await pageReady(page, 'Background Remover');
      await chooseImage(page, SMALL_CAT);
      const { width, height } = await sharp(SMALL_CAT).metadata();

      // The choice is a group of radio buttons: reached and changed from the keyboard as well.
      const result = page.getByRole('group', { name: 'Result' });
      await result.getByRole('radio', { name: 'Blur' }).check();
      expect(await page.getByRole('combobox', { name: 'Finish' }).count()).toBe(0);
      const strength = page.getByRole('slider', { name: /Blur strength/ });
      await strength.fill('70');
      await page.getByText('Blur strength: 70').waitFor();
      await page.screenshot({ path: path.join(SHOTS, `remover-blur-choice-${label}.png`), fullPage: true });
      const blurred = await runAndDownload(page);
      await page.screenshot({ path: path.join(SHOTS, `remover-blur-result-${label}.png`), fullPage: true });
      expect(blurred.name).toBe('background-removed.webp');
      const blurMeta = await sharp(blurred.bytes).metadata();
      expect([blurMeta.format, blurMeta.width, blurMeta.height, blurMeta.hasAlpha]).toEqual([
        'webp',
        width,
        height,
        false,
      ]);

      await result.getByRole('radio', { name: 'Mask' }).check();
      expect(await strength.count()).toBe(0);
      const mask = await runAndDownload(page);
      await page.screenshot({ path: path.join(SHOTS, `remover-mask-result-${label}.png`), fullPage: true });
      expect(mask.name).toBe('background-removed.png');
      const maskMeta = await sharp(mask.bytes).metadata();
      expect([maskMeta.format, maskMeta.width, maskMeta.height, maskMeta.channels]).toEqual(['png', width, height, 1]);
      // Each run the Background Remover's price: 2 tokens.
      await expect.poll(() => balance(page)).toBe(before - 4);
    },
    420_000,
  );
});
