// Issue 58 item 5 in a real browser against the real server, at phone (390 px) and desktop (1280 px)
// widths: a recipe built on /recipes (Remove Background on white with a shadow, then Image Upscaler
// 2x as JPEG 90), saved, run on one photo with its total shown first and the result downloaded; too
// many photos for the balance say "Not enough tokens" before anything is sent; two photos run as a
// batch with one zip back; the balance falls by exactly the steps' prices. Screenshots go to
// .tmp/e2e-shots/ (not committed).
import path from 'node:path';
import { unzipSync } from 'fflate';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { SHOTS, WIDTHS } from './support/browser';
import { browserForFile } from './support/suite';
import { downloadFrom, pageReady } from './support/tool-page';
import { shownBalance as balance, newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');
const SMALL_CAT = path.resolve(import.meta.dirname, 'fixtures/chelsea-small.png');
const SMALL_FACE = path.resolve(import.meta.dirname, 'fixtures/grace_hopper-small.jpg');
/** Local models on a machine the other tests keep busy: a limit catches a hang, not slowness. */
const RUN_WAIT_MS = 240_000;

describe.runIf(inject('browserAvailable'))('recipes (issue 58)', () => {
  const browser = browserForFile();

  it.each(WIDTHS)(
    'builds, saves and runs a recipe on one photo and on a batch (%s)',
    async (label, viewport) => {
      const { page } = await newAccount(browser(), baseUrl, { verified: true, viewport, at: '/recipes' });
      const before = await pageReady(page, 'Recipes');
      await page.getByText('No recipes yet.').waitFor();

      // Build: step 1 Remove Background on white with a shadow; step 2 Image Upscaler 2x as JPEG 90.
      await page.getByLabel('Name').fill('Shop listing');
      await page.getByLabel('Background').selectOption('white');
      await page.getByLabel('Shadow').check();
      await page.getByRole('button', { name: 'Add a step' }).click();
      await expect.poll(() => page.getByTestId('recipe-step').count()).toBe(2);
      await page.getByLabel('Step 2 tool').selectOption('image-upscaler');
      const second = page.getByTestId('recipe-step').nth(1);
      await second.getByLabel('Scale').selectOption('2');
      await second.getByLabel('File format').selectOption('jpeg');
      await second.getByLabel('Quality (1-100)').fill('90');
      // Reorder and back: the upscaler first, then the remover again.
      await page.getByRole('button', { name: 'Move step 2 up' }).click();
      expect(await page.getByLabel('Step 1 tool').inputValue()).toBe('image-upscaler');
      await page.getByRole('button', { name: 'Move step 1 down' }).click();
      expect(await page.getByLabel('Step 1 tool').inputValue()).toBe('background-remover');
      await page.screenshot({ path: path.join(SHOTS, `recipes-builder-${label}.png`), fullPage: true });
      await page.getByRole('button', { name: 'Save recipe' }).click();
      await page.getByText('Saved "Shop listing".').waitFor();
      const card = page.getByTestId('recipe-card');
      await card.getByText('Remove Background > Image Upscaler').waitFor();
      const cost = Number((await card.getByText(/per image$/).textContent())?.match(/(\d+) tokens?/)?.[1]);
      expect(cost).toBeGreaterThan(0);

      // Run on one photo: the total first, then each step's progress, then the download.
      await card.getByRole('button', { name: 'Run' }).click();
      const files = page.getByLabel(/^Photos/);
      await files.setInputFiles(SMALL_CAT);
      await expect.poll(() => page.getByTestId('run-total').textContent()).toContain(`Total: ${cost} token`);
      await page.screenshot({ path: path.join(SHOTS, `recipes-run-total-${label}.png`), fullPage: true });
      await page.getByRole('button', { name: 'Run', exact: true }).last().click();
      const download = page.getByRole('link', { name: 'Download', exact: true });
      await download.waitFor({ timeout: RUN_WAIT_MS });
      await page.screenshot({ path: path.join(SHOTS, `recipes-run-done-${label}.png`), fullPage: true });
      const result = await sharp((await downloadFrom(page, download)).bytes).metadata();
      expect(result.format).toBe('jpeg');
      await expect.poll(() => balance(page)).toBe(before - cost);

      // More photos than the balance covers: said before anything is sent.
      const many = Math.floor((before - cost) / cost) + 1;
      await files.setInputFiles(Array.from({ length: many }, () => SMALL_CAT));
      await page.getByText('Not enough tokens').waitFor();
      expect(await page.getByRole('button', { name: `Run on ${many} images` }).isDisabled()).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, `recipes-not-enough-${label}.png`), fullPage: true });

      // A batch of two: one zip back, and each image charged the recipe's cost.
      await files.setInputFiles([SMALL_CAT, SMALL_FACE]);
      await page.getByRole('button', { name: 'Run on 2 images' }).click();
      const zipLink = page.getByRole('link', { name: 'Download all (zip)' });
      await page.getByText(/^Finished: 2 done, 0 failed/).waitFor({ timeout: RUN_WAIT_MS });
      await page.screenshot({ path: path.join(SHOTS, `recipes-batch-done-${label}.png`), fullPage: true });
      const zip = await downloadFrom(page, zipLink);
      const entries = Object.keys(unzipSync(new Uint8Array(zip.bytes)));
      expect(entries.filter((entry) => entry !== 'README.txt')).toHaveLength(2);
      await expect.poll(() => balance(page)).toBe(before - 3 * cost);
    },
    600_000,
  );
});
