// Batch runs in a real browser against the real server and its local models (issue 40, decision
// 062), at 390 and 1280 px: three images through the Image Upscaler and through the Image Analyzer
// (each batch run once, its page checked at both widths), each charged on its own, the grid showing each image's state, the view resumed after a reload, and
// the zip's contents (the results named after the inputs; the analysis as keywords.csv); axe on the
// batch before and after its run; a batch with an image that has no subject (that image refunded
// alone, its reason shown); a batch larger than the balance (the page offers the images it covers,
// and keeps them on the way to /tokens); My Creations grouping a batch into one card that deletes
// with its images; ten photos of the sizes phones make (megapixels, megabytes: issue 52) through the
// Image Analyzer, each charged once, one zip back.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { keywordsCsvFileNames } from '../test/support/keywords-csv';
import { phoneJpeg, phonePng } from '../test/support/phone-photos';
import { axeViolations } from './support/axe';
import { DESKTOP, launchBrowser, openFromMenu, PHONE } from './support/browser';
import { shownBalance as balance, newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures');
const TMP = path.resolve(import.meta.dirname, '../.tmp');
/** Screenshots to look at by eye (git-ignored). */
const SHOTS = path.join(TMP, 'e2e-shots');
/** Local models on a machine the other tests keep busy: a limit catches a hang, not slowness. */
const RUN_WAIT_MS = 120_000;

type FilePayload = { name: string; mimeType: string; buffer: Buffer };

/**
 * A small JPEG of a whole test photo, a little wider each time so no two are alike, named as a camera
 * names its files. Whole photos: small crops of them can look explicit to the content check.
 */
async function photo(name: string, variant: number, source = 'chelsea.png'): Promise<FilePayload> {
  const buffer = await sharp(path.join(FIXTURES, source))
    .resize(160 + variant * 8, 120, { fit: 'fill' })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { name, mimeType: 'image/jpeg', buffer };
}

/** A flat grey image: nothing in it for a cut-out to find. */
async function blank(name: string): Promise<FilePayload> {
  const buffer = await sharp({ create: { width: 160, height: 120, channels: 3, background: '#9a9a9a' } })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

/**
 * Ten photos as a phone's camera roll holds them: a 12 MP JPEG, eight 4-6 MP JPEGs of 2-4 MB (each a
 * little larger than the last, so no two are alike) and a 5 MB screenshot. The eight are crops of the
 * 12 MP photo, re-encoded: its noise keeps them as large as a camera's, and one noisy photo made
 * instead of nine was 4 of the test's CPU-seconds.
 */
async function tenPhonePhotos(): Promise<FilePayload[]> {
  const [twelveMp, screenshot] = await Promise.all([phoneJpeg({ width: 4000, height: 3000 }), phonePng()]);
  const { data, info } = await sharp(twelveMp).raw().toBuffer({ resolveWithObject: true });
  const crops = Array.from({ length: 8 }, (_, n) => ({
    left: n * 32,
    top: n * 24,
    width: 2304 + n * 96,
    height: 1728 + n * 72,
  }));
  const jpegs = await Promise.all(
    crops.map(async (crop, n) => ({
      name: `IMG_${5001 + n}.jpg`,
      mimeType: 'image/jpeg',
      buffer: await sharp(data, { raw: info }).extract(crop).jpeg({ quality: 90 }).toBuffer(),
    })),
  );
  return [
    ...jpegs,
    { name: 'IMG_5009.jpg', mimeType: 'image/jpeg', buffer: twelveMp },
    { name: 'Screenshot_5010.png', mimeType: 'image/png', buffer: screenshot },
  ];
}

const threePhotos = () =>
  Promise.all([photo('IMG_0412.jpg', 0), photo('IMG_0413.jpg', 1, 'grace_hopper.jpg'), photo('IMG_0414.jpg', 2)]);

describe.runIf(inject('browserAvailable'))('batches in the browser', () => {
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });

  /** A new account's page on the tool at `route` (its first and only page load), its 20 tokens shown. */
  async function signedInAt(viewport: { width: number; height: number }, route: string, title: string): Promise<Page> {
    const { page } = await newAccount(browser, baseUrl, { verified: true, prefix: 'batch', viewport, at: route });
    contexts.push(page.context());
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByTestId('token-balance').and(page.locator(':not([aria-busy])')).waitFor();
    await expect.poll(() => balance(page)).toBe(20);
    return page;
  }

  /** Opens a tool from the menu (no page load) once the session has loaded. */
  async function openTool(page: Page, label: string, title: string) {
    await openFromMenu(page, label);
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByTestId('token-balance').and(page.locator(':not([aria-busy])')).waitFor();
  }

  /** Waits until the batch's counts say `text` ("3 of 3 done"). */
  const countsSay = (page: Page, text: string) => page.getByText(text).first().waitFor({ timeout: RUN_WAIT_MS });

  /** The entries of the batch's zip, downloaded with "Download all (.zip)". */
  async function zipEntries(page: Page): Promise<Record<string, Uint8Array>> {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download all (.zip)' }).first().click(),
    ]);
    return unzipSync(new Uint8Array(readFileSync(await download.path())));
  }

  // Each batch runs its models once and is checked at both widths: a width changes the page, not the jobs.
  it('upscales three images as a batch, resumes it after a reload, and zips them by name (390 and 1280 px)', async () => {
    const page = await signedInAt(PHONE, '/image-upscaler', 'Image Upscaler');
    await page.getByTestId('image-input').setInputFiles(await threePhotos());
    // axe once for each state of the batch view, each at one width (its markup is the same at both):
    // before its run at 390 px, done at 1280 px.
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.getByText('3 images x 1 token = 3 tokens').waitFor();
      await page.getByText('You have 20 tokens.').waitFor();
      await page.screenshot({ path: `${SHOTS}/batch-upscaler-picked-${viewport.width}.png`, fullPage: true });
      if (viewport === PHONE) {
        expect(await axeViolations(page, `the batch before its run (${viewport.width} px)`)).toEqual([]);
      }
    }
    await page.getByRole('button', { name: 'Run 3 images' }).click();
    await page.waitForURL(/[?&]batch=[0-9a-f-]{36}/);
    await countsSay(page, '3 of 3 done');
    await expect.poll(() => balance(page)).toBe(17);
    expect(await axeViolations(page, `the batch done (${DESKTOP.width} px)`)).toEqual([]);

    // A reload shows the same batch from the server, at each width.
    await page.reload();
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await countsSay(page, '3 of 3 done');
      await page.screenshot({ path: `${SHOTS}/batch-upscaler-done-${viewport.width}.png`, fullPage: true });
      expect(await page.getByText('Done', { exact: true }).count()).toBe(3);
      const entries = await zipEntries(page);
      expect(Object.keys(entries).sort()).toEqual([
        'IMG_0412-upscaled-image.webp',
        'IMG_0413-upscaled-image.webp',
        'IMG_0414-upscaled-image.webp',
        'README.txt',
      ]);
      // Each is the 2x result of its input (168 x 120).
      const size = await sharp(Buffer.from(entries['IMG_0413-upscaled-image.webp'] as Uint8Array)).metadata();
      expect([size.width, size.height]).toEqual([336, 240]);
    }
  }, 300_000);

  it('analyses three images as a batch and zips their keywords as a CSV (390 and 1280 px)', async () => {
    const page = await signedInAt(PHONE, '/image-analyzer', 'Image Analyzer');
    await page.getByTestId('image-input').setInputFiles(await threePhotos());
    await page.getByRole('button', { name: 'Run 3 images' }).click();
    await countsSay(page, '3 of 3 done');
    await expect.poll(() => balance(page)).toBe(17);
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.getByRole('list', { name: 'Keywords of IMG_0412.jpg' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/batch-analyzer-done-${viewport.width}.png`, fullPage: true });
      const entries = await zipEntries(page);
      expect(Object.keys(entries)).toEqual(['keywords.csv', 'README.txt']);
      const rows = Buffer.from(entries['keywords.csv'] as Uint8Array)
        .toString()
        .trim()
        .split('\r\n');
      expect(rows[0]).toBe('Filename,Keywords,Colors');
      expect(rows.slice(1).map((row) => row.split(',')[0])).toEqual(['IMG_0412.jpg', 'IMG_0413.jpg', 'IMG_0414.jpg']);
      // Each row has its keywords and its colours as hex.
      for (const row of rows.slice(1)) expect(row).toMatch(/^IMG_041\d\.jpg,"?[a-z].*,"?#[0-9a-f]{6}/i);
    }
  }, 300_000);

  // The cheapest real tool on the local engine (it sees each photo shrunk as it is decoded): the
  // photos' size is what is tested, the server's body limits and the page's sending.
  it('runs ten phone-sized photos as a batch, each charged once, with one zip back', async () => {
    const photos = await tenPhonePhotos();
    for (const file of photos) expect(file.buffer.length, file.name).toBeGreaterThan(2_000_000);
    // Chosen from a folder, as a phone's picker gives them: the browser reads each file itself, where
    // buffers (30 MB) would cross Playwright's protocol as base64.
    const folder = mkdtempSync(path.join(TMP, 'batch-photos-'));
    for (const file of photos) writeFileSync(path.join(folder, file.name), file.buffer);
    const page = await signedInAt(DESKTOP, '/image-analyzer', 'Image Analyzer');
    await page.getByTestId('image-input').setInputFiles(photos.map((file) => path.join(folder, file.name)));
    await page.getByText('10 images x 1 token = 10 tokens').waitFor();
    await page.getByRole('button', { name: 'Run 10 images' }).click();
    await countsSay(page, '10 of 10 done');
    await expect.poll(() => balance(page)).toBe(10);
    const entries = await zipEntries(page);
    expect(Object.keys(entries)).toEqual(['keywords.csv', 'README.txt']);
    expect(keywordsCsvFileNames(entries)).toEqual(photos.map((file) => file.name));
    rmSync(folder, { recursive: true, force: true });
  }, 300_000);

  it('refunds the image with no subject alone and says why on it', async () => {
    const page = await signedInAt(DESKTOP, '/background-remover', 'Background Remover');
    await page.getByTestId('image-input').setInputFiles([await photo('cat.jpg', 0), await blank('grey wall.png')]);
    await page.getByText('2 images x 2 tokens = 4 tokens').waitFor();
    await page.getByRole('button', { name: 'Run 2 images' }).click();
    await countsSay(page, '1 of 2 done · 1 failed');
    await page.getByText('No subject found in this image', { exact: false }).first().waitFor();
    await page.getByText('Refunded').first().waitFor();
    await page.getByText('4 tokens taken · 2 tokens refunded').waitFor();
    await expect.poll(() => balance(page)).toBe(18);
    await page.screenshot({ path: `${SHOTS}/batch-remover-failed-${DESKTOP.width}.png`, fullPage: true });
    // Only the cut-out is in the zip.
    expect(Object.keys(await zipEntries(page))).toEqual(['cat-background-removed.png', 'README.txt']);
  }, 300_000);

  it('offers the images the balance covers when a batch costs more, and groups a batch in My Creations', async () => {
    const page = await signedInAt(PHONE, '/background-remover', 'Background Remover');
    const eleven = await Promise.all(
      Array.from({ length: 11 }, (_, n) => photo(`DSC_${String(n + 1).padStart(4, '0')}.jpg`, n)),
    );
    await page.getByTestId('image-input').setInputFiles(eleven);
    await page.getByText('11 images x 2 tokens = 22 tokens').waitFor();
    await page.getByText('Your balance covers 10 of them.').waitFor();
    await page.getByRole('button', { name: 'Run the 10 images your balance covers' }).waitFor();
    await page.getByRole('link', { name: 'Buy tokens' }).waitFor();
    await page.screenshot({ path: `${SHOTS}/batch-over-balance-${PHONE.width}.png`, fullPage: true });
    // Nothing was charged for looking.
    expect(await balance(page)).toBe(20);
    // On the way to buy tokens the images are kept, and are there again on the way back.
    await page.getByRole('link', { name: 'Buy tokens' }).click();
    await page.waitForURL(`${baseUrl}/tokens`);
    await page.getByText('Your 11 images and settings are kept', { exact: false }).waitFor();
    await page.getByRole('link', { name: 'Back to Background Remover' }).click();
    await page.getByText('11 images x 2 tokens = 22 tokens').waitFor();
    expect(await page.locator('.pp-batch-tile__name').allTextContents()).toEqual(eleven.map((file) => file.name));

    // A small batch, then My Creations shows it as one card that opens to its images and deletes with them.
    await openTool(page, 'Image Upscaler', 'Image Upscaler');
    await page.getByTestId('image-input').setInputFiles((await threePhotos()).slice(0, 2));
    await page.getByRole('button', { name: 'Run 2 images' }).click();
    await countsSay(page, '2 of 2 done');
    await openFromMenu(page, 'My Creations');
    await page.getByTestId('batch-label').filter({ hasText: 'Batch · 2 images' }).waitFor();
    expect(await page.getByTestId('creation').count()).toBe(1);
    await page.screenshot({ path: `${SHOTS}/batch-creations-${PHONE.width}.png`, fullPage: true });
    await page.getByRole('button', { name: 'Delete batch' }).click();
    await page.getByRole('button', { name: 'Delete for good' }).click();
    await expect.poll(() => page.getByTestId('creation').count()).toBe(0);
  }, 300_000);
});
