// User Settings > Developer in a real browser, at a phone's and a desktop's width (issue 39): a key
// made there is shown once, works as a Bearer key at once, is listed by its first characters, and
// stops working the moment it is revoked; the webhook signing secret shows on request. Screenshots
// go to .tmp/e2e-shots/ (not committed).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, launchBrowser, PHONE } from './support/browser';
import { newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');
const SHOTS = path.resolve(import.meta.dirname, '../.tmp/e2e-shots');

/** GET /api/profile with the key alone, as a program would call it (no cookie, no Origin). */
const profileWithKey = (key: string) =>
  fetch(`${baseUrl}/api/profile`, { headers: { authorization: `Bearer ${key}` } });

describe.runIf(inject('browserAvailable'))('API keys in User Settings', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
  });
  afterAll(() => browser?.close());

  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`makes a key shown once that works at once, and revokes it (${viewport.width} px)`, async () => {
      const { page, email } = await newAccount(browser, baseUrl, {
        verified: true,
        prefix: 'keys',
        viewport,
        at: '/user-settings',
      });
      const card = page.getByRole('region', { name: 'Developer' });
      await card.getByText('No API keys yet.').waitFor();
      expect(await card.getByRole('link', { name: 'Read the API docs' }).getAttribute('href')).toBe('/developers');

      await card.getByLabel('Key name').fill('Shop backend');
      await card.getByRole('button', { name: 'Create key' }).click();
      const shown = card.getByTestId('new-api-key').getByRole('textbox');
      await shown.waitFor();
      const key = await shown.inputValue();
      expect(key).toMatch(/^pp_[A-Za-z0-9_-]{43}$/);
      await card.getByText('it will not be shown again').waitFor();
      await page.screenshot({ path: path.join(SHOTS, `developer-keys-${name}-created.png`), fullPage: true });

      // The key acts as its owner from code straight away.
      const profile = await profileWithKey(key);
      expect(profile.status).toBe(200);
      expect(((await profile.json()) as { email: string }).email).toBe(email);

      // Once "Done", the secret is gone from the page: the list shows its first characters only.
      await card.getByRole('button', { name: 'Done' }).click();
      await card.getByText('Shop backend').waitFor();
      expect(await card.getByTestId('new-api-key').count()).toBe(0);
      expect(await card.textContent()).toContain(key.slice(0, 12));
      expect(await card.textContent()).not.toContain(key);

      // The webhook signing secret: masked until asked for.
      const secret = card.getByRole('textbox', { name: 'Signing secret', exact: true });
      await expect.poll(() => secret.inputValue()).toMatch(/^whsec_•+$/);
      await card.getByRole('button', { name: 'Show' }).click();
      await expect.poll(() => secret.inputValue()).toMatch(/^whsec_[A-Za-z0-9+/=]{20,}$/);
      await page.screenshot({ path: path.join(SHOTS, `developer-keys-${name}-listed.png`), fullPage: true });

      await card.getByRole('button', { name: 'Revoke' }).click();
      await card.getByRole('button', { name: 'Revoke key' }).click();
      await card.getByText('No API keys yet.').waitFor();
      expect((await profileWithKey(key)).status).toBe(401);
      await page.context().close();
    }, 120_000);
  }
});
