// Reading mail as a developer does on a fresh machine: the /dev/mail outbox page.
import type { Page } from 'playwright-core';

/** Opens the newest mail to `to` whose subject matches, and clicks its button link. */
export async function followMailLink(page: Page, baseUrl: string, to: string, subject: RegExp, linkName: RegExp) {
  for (let attempt = 0; attempt < 50; attempt++) {
    await page.goto(`${baseUrl}/dev/mail`);
    const entry = page.getByRole('link').filter({ hasText: subject }).filter({ hasText: to }).first();
    if ((await entry.count()) > 0) {
      await entry.click();
      await page.frameLocator('iframe').getByRole('link', { name: linkName }).first().click();
      return;
    }
    await page.waitForTimeout(200); // the account-setup job sends it within a poll or two
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}
