// Issue 54 items 2 and 3 in a real browser against the real server and its local engine, at phone
// (390 px) and desktop (1280 px) widths: a single Image Upscaler job says its place in the line and
// the time it still needs in a batch's words ("About 40 s left"), and its result, when it comes, is
// brought into view with the focus on its heading; a batch's zip link says what it gives while
// images still run ("Download the 1 finished"), and that zip's README.txt lists the rest.
// Screenshots go to .tmp/e2e-shots/ (not committed).
import path from 'node:path';
import { unzipSync } from 'fflate';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, inject, it } from 'vitest';
import { DESKTOP, PHONE, SHOTS } from './support/browser';
import { browserForFile } from './support/suite';
import { chooseImage, downloadFrom, pageReady } from './support/tool-page';
import { shownBalance as balance, newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');
const CAT = path.resolve(import.meta.dirname, 'fixtures/chelsea.png');
/** Local models on a machine the other tests keep busy: a limit catches a hang, not slowness. */
const RUN_WAIT_MS = 240_000;

/** The cat photo `width` px wide, as a JPEG named `name`. */
async function cat(name: string, width: number) {
  return { name, mimeType: 'image/jpeg', buffer: await sharp(CAT).resize(width).jpeg({ quality: 88 }).toBuffer() };
}

describe.runIf(inject('browserAvailable'))("one job's progress as good as a batch's (issue 54)", () => {
  const browser = browserForFile();

  const progress = (page: Page) => page.getByTestId('job-progress');

  async function openUpscaler(page: Page) {
    await page.goto(`${baseUrl}/image-upscaler`);
    await pageReady(page, 'Image Upscaler');
  }

  /**
   * Three good 2x runs of tiny images through the API, each awaited: the server knows how long the
   * tool takes here from then on (it says nothing before three), as it would after a few users' jobs.
   */
  async function runsOfTheTool(page: Page) {
    const image = `data:image/png;base64,${(await sharp(CAT).resize(48).png().toBuffer()).toString('base64')}`;
    for (let run = 0; run < 3; run++) {
      const call = await page.request.post(`${baseUrl}/api/upscale-image`, {
        data: { image, scale: 2 },
        headers: { origin: baseUrl, prefer: 'wait=0' },
      });
      expect([200, 202]).toContain(call.status());
      const { jobId } = (await call.json()) as { jobId?: string };
      if (call.status() === 200 || !jobId) continue; // done within the call
      await expect
        .poll(
          async () => {
            const read = await page.request.get(`${baseUrl}/api/jobs/${jobId}`, { headers: { prefer: 'wait=5' } });
            return ((await read.json()) as { status: string }).status;
          },
          { timeout: RUN_WAIT_MS, interval: 0 },
        )
        .toBe('succeeded');
    }
  }

  /** The result's heading has the focus, and the result, down to its Download button, is in the window. */
  async function resultFocusedInView(page: Page) {
    const heading = page.getByRole('heading', { level: 2, name: 'Upscaled (2x)' });
    const download = page.getByRole('button', { name: 'Download', exact: true });
    await download.waitFor({ timeout: RUN_WAIT_MS });
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true);
    const height = page.viewportSize()?.height ?? 0;
    const inView = async () => {
      const [top, bottom] = await Promise.all([heading.boundingBox(), download.boundingBox()]);
      return Boolean(top && bottom && top.y >= 0 && bottom.y + bottom.height <= height);
    };
    // Once its picture has loaded, which may bring it up a second time.
    await expect.poll(inView).toBe(true);
  }

  it('a single job says its place and time left, and its result takes the view and the focus (390 and 1280 px)', async () => {
    const { page: phone } = await newAccount(browser(), baseUrl, { verified: true, prefix: 'single', viewport: PHONE });
    await runsOfTheTool(phone);
    const desktop = await phone.context().newPage();
    await desktop.setViewportSize(DESKTOP);
    for (const [page, width] of [
      [phone, 360],
      [desktop, 240],
    ] as const) {
      await openUpscaler(page);
      await chooseImage(page, await cat(`cat-${width}.jpg`, width));
    }
    // The phone's job first: the desktop's waits for the model it holds (the local engine runs one at a time).
    await phone.getByTestId('tool-action').click();
    await expect.poll(async () => (await progress(phone).textContent()) ?? '').not.toMatch(/^Sending|^$/);
    await desktop.getByTestId('tool-action').click();

    // Its place and the time it still needs, in the words a batch's tiles and summary use.
    await expect
      .poll(async () => (await progress(desktop).textContent()) ?? '', { timeout: RUN_WAIT_MS, interval: 200 })
      .toMatch(/^Queued: (yours is next|\d+ jobs? ahead of yours)… \d+:\d\d elapsed · About \d+ (s|min) left$/);
    await desktop.screenshot({ path: path.resolve(SHOTS, 'single-job-queued-1280.png') });
    // By the phone's button too (its panel is below the form), while it runs.
    const byButton = phone.locator('.pp-action__progress');
    if (await byButton.isVisible()) await phone.screenshot({ path: path.resolve(SHOTS, 'single-job-running-390.png') });

    // At 390 px the result lands under the form: it is brought up, its heading focused.
    await resultFocusedInView(phone);
    await phone.screenshot({ path: path.resolve(SHOTS, 'single-job-done-390.png') });
    // At 1280 px it is beside the form: focused where it is.
    await resultFocusedInView(desktop);
    await desktop.screenshot({ path: path.resolve(SHOTS, 'single-job-done-1280.png') });

    // A result shown again when the page opens takes neither the view nor the focus.
    await phone.reload();
    await phone.getByRole('heading', { level: 2, name: 'Upscaled (2x)' }).waitFor();
    await phone.getByRole('button', { name: 'Download', exact: true }).waitFor();
    expect(await phone.evaluate(() => document.activeElement?.tagName)).not.toBe('H2');
    await phone.context().close();
  }, 600_000);

  it('a running batch offers its finished images and a README.txt for the rest (390 and 1280 px)', async () => {
    const { page } = await newAccount(browser(), baseUrl, { verified: true, prefix: 'zip', viewport: PHONE });
    await openUpscaler(page);
    await expect.poll(() => balance(page)).toBe(20);
    // A small image first, then two larger: the first is done while the others wait or run.
    await page
      .getByTestId('image-input')
      .setInputFiles([await cat('IMG_0001.jpg', 64), await cat('IMG_0002.jpg', 360), await cat('IMG_0003.jpg', 368)]);
    await page.getByRole('button', { name: 'Run 3 images' }).click();
    const partial = page.getByRole('link', { name: 'Download the 1 finished' });
    await partial.waitFor({ timeout: RUN_WAIT_MS });
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await partial.scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.resolve(SHOTS, `batch-partial-zip-${viewport.width}.png`) });
    }
    const entries = unzipSync(new Uint8Array((await downloadFrom(page, partial)).bytes));
    const readme = Buffer.from(entries['README.txt'] as Uint8Array).toString();
    expect(readme.startsWith('Image Upscaler: a batch of 3 images.\r\n')).toBe(true);
    // The others may have finished since the link was read: README.txt says what the zip holds, and
    // lists each image of the batch once, done (with its entry) or still waiting or running.
    const results = Object.keys(entries).filter((name) => name !== 'README.txt');
    expect(results).toContain('IMG_0001-upscaled-image.webp');
    const lines = readme.split('\r\n');
    const listed = (n: number) => lines.filter((line) => line.startsWith(`  ${n}. IMG_000${n}.jpg`));
    for (const n of [1, 2, 3]) {
      const done = `  ${n}. IMG_000${n}.jpg -> IMG_000${n}-upscaled-image.webp`;
      expect(listed(n)).toEqual([
        results.includes(`IMG_000${n}-upscaled-image.webp`) ? done : `  ${n}. IMG_000${n}.jpg`,
      ]);
    }
    if (results.length < 3)
      expect(readme).toContain(`Still waiting or running (${3 - results.length}), not in this zip yet:`);

    // All done: all there is.
    await page.getByRole('link', { name: 'Download all (.zip)' }).waitFor({ timeout: RUN_WAIT_MS });
    await page.context().close();
  }, 600_000);
});
