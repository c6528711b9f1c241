// The steps of a tool page that its browser tests share: the page ready to use, a photo chosen, a
// file downloaded.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { appIsLive } from './browser';
import { shownBalance } from './visitors';

/**
 * Waits until `page` shows its heading `title`, its scripts run (a click before then does nothing)
 * and its token balance has loaded; the balance it shows.
 */
export async function pageReady(page: Page, title: string): Promise<number> {
  await page.getByRole('heading', { level: 1, name: title }).waitFor();
  await appIsLive(page);
  await page.getByTestId('token-balance').and(page.locator(':not([aria-busy])')).waitFor();
  return (await shownBalance(page)) ?? 0;
}

/** Puts `file` (a path, or a name, type and bytes) in the tool's image input and waits for its preview. */
export async function chooseImage(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }) {
  await page.getByTestId('image-input').setInputFiles(file);
  const name = typeof file === 'string' ? path.basename(file) : file.name;
  await page.getByRole('img', { name: `Your image: ${name}` }).waitFor();
}

/** Clicks `control` (a Download button or link) and returns the file the browser saves: its name and bytes. */
export async function downloadFrom(page: Page, control: Locator): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), control.click()]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}
