// Buying tokens in a real browser against the real server's built-in test checkout: a purchase that
// raises the balance by 500, a canceled one that charges nothing, and every purchase message of the
// spec's section 5 (unverified here; dispute and fraud on a second server, where support's admin tool
// flags the accounts while it is stopped, since the embedded database has one owner at a time).
import { rmSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PURCHASE_MESSAGES } from '../src/contract/packages';
import { launchBrowser, openFromMenu } from './support/browser';
import { type ServerProcess, startServerProcess } from './support/server';
import { adminCli, newAccount, newAccountContext, shownBalance } from './support/visitors';

const sharedBaseUrl = inject('baseUrl');

describe.runIf(inject('browserAvailable'))('token purchases in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  const buyButton = (page: Page, index: number) => page.getByRole('button', { name: 'Buy Tokens' }).nth(index);
  const note = (page: Page) => page.getByTestId('purchase-note');
  const banner = (page: Page) => page.getByTestId('checkout-banner');

  /** Collects the page's alerts (accepting them, so the page goes on). */
  function alerts(page: Page): string[] {
    const seen: string[] = [];
    page.on('dialog', (dialog) => {
      seen.push(dialog.message());
      void dialog.accept();
    });
    return seen;
  }

  /** A blocked user's buttons are marked disabled yet still explain themselves: from the keyboard. */
  async function pressBuy(page: Page, index: number) {
    await buyButton(page, index).focus();
    await page.keyboard.press('Enter');
  }

  it('buys 500 tokens on the landing page through the local checkout: the balance rises by 500', async () => {
    const { page } = await newAccount(browser, sharedBaseUrl, { verified: true });
    await expect.poll(() => shownBalance(page)).toBe(20);
    await openFromMenu(page, 'Home');
    const buy = buyButton(page, 0);
    await buy.scrollIntoViewIfNeeded();
    expect(await note(page).count()).toBe(0);
    await buy.click();

    await page.waitForURL(/\/checkout\/local\/[^/]+$/);
    await page.getByText('Test mode').waitFor();
    await page.getByRole('button', { name: 'Pay $5.00' }).click();

    await page.waitForURL(`${sharedBaseUrl}/tokens?checkout=success`);
    await expect
      .poll(() => banner(page).textContent(), { timeout: 15_000 })
      .toBe('Payment complete: 500 tokens added. Your balance is now 520 tokens.');
    expect(await page.getByTestId('tokens-balance').textContent()).toBe('520 tokens');
    expect(await shownBalance(page)).toBe(520);
    const row = page.getByTestId('purchase-history').getByRole('row').nth(1);
    expect(await row.getByRole('cell').allTextContents()).toEqual([expect.any(String), '500 Tokens', '$5.00', 'Paid']);
  });

  it('cancels a checkout started on /tokens: nothing is charged and the history says so', async () => {
    const { page } = await newAccount(browser, sharedBaseUrl, { verified: true, at: '/tokens' });
    await page.getByRole('heading', { level: 1, name: 'Tokens' }).waitFor();
    await expect.poll(() => page.getByTestId('tokens-balance').textContent()).toBe('20 tokens');
    await page.getByText('No purchases yet. Each package you buy will be listed here.').waitFor();
    await buyButton(page, 1).click();

    await page.waitForURL(/\/checkout\/local\//);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${sharedBaseUrl}/tokens?checkout=canceled`);
    expect(await banner(page).textContent()).toBe('Checkout canceled. Nothing was charged.');
    const row = page.getByTestId('purchase-history').getByRole('row').nth(1);
    await expect
      .poll(() => row.getByRole('cell').allTextContents())
      .toEqual([expect.any(String), '1100 Tokens', '$10.00', 'Canceled']);
    expect(await page.getByTestId('tokens-balance').textContent()).toBe('20 tokens');
  });

  it('asks an unverified user to verify, under the cards and in an alert, and starts no checkout', async () => {
    const { page } = await newAccount(browser, sharedBaseUrl, { verified: false, at: '/' });
    const seen = alerts(page);
    await expect.poll(() => note(page).textContent()).toBe(PURCHASE_MESSAGES.verifyNote);
    for (let i = 0; i < 3; i++) expect(await buyButton(page, i).getAttribute('aria-disabled')).toBe('true');
    await pressBuy(page, 2);
    await expect.poll(() => seen).toEqual([PURCHASE_MESSAGES.verifyAlert]);
    expect(page.url()).toBe(`${sharedBaseUrl}/`);

    await page.goto(`${sharedBaseUrl}/tokens`);
    await expect.poll(() => note(page).textContent()).toBe(PURCHASE_MESSAGES.verifyNote);
  });

  describe('for accounts support has flagged', () => {
    let server: ServerProcess | undefined;
    afterAll(async () => {
      await server?.stop();
      if (server) rmSync(server.dataDir, { recursive: true, force: true });
    });

    it('shows the dispute and fraud messages and alerts, and starts no checkout', async () => {
      server = await startServerProcess({ env: { TRUST_PROXY_HOPS: '1' } });
      // Signed in before the restart: a session outlives it, and the browsers open no page until then.
      const disputed = await newAccountContext(browser, server.url, { verified: true, prefix: 'disputed' });
      const flagged = await newAccountContext(browser, server.url, { verified: true, prefix: 'fraud' });

      const dataDir = server.dataDir;
      await server.stop();
      adminCli(dataDir, 'flag', disputed.email, 'dispute', 'on');
      adminCli(dataDir, 'flag', flagged.email, 'fraud', 'on');
      server = await startServerProcess({ dataDir, env: { TRUST_PROXY_HOPS: '1' } });

      const cases = [
        { visitor: disputed, text: PURCHASE_MESSAGES.disputeNote },
        { visitor: flagged, text: PURCHASE_MESSAGES.fraudNote },
      ];
      for (const { visitor, text } of cases) {
        const page = await visitor.context.newPage();
        const seen = alerts(page);
        await page.goto(server.url);
        await expect.poll(() => note(page).textContent()).toBe(text);
        await pressBuy(page, 0);
        await expect.poll(() => seen).toEqual([PURCHASE_MESSAGES.blockedAlert]);
        expect(page.url()).toBe(`${server.url}/`);
        await page.context().close();
      }
      // Two server starts and the admin CLI: under a full machine, more than the default minute.
    }, 240_000);
  });
});
