// The support console (issue 57 item 2) in a real browser against a real server whose ADMIN_EMAILS
// names an operator: the operator finds a customer by email, grants tokens with a reason, refunds a
// paid job once, sets and clears the fraud flag, and the audit log lists each; the customer's ledger
// shows the grant and the refund. A customer at /admin gets the app's not-found screen. At 1280 and
// 390 px, with screenshots to look at.
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { appIsLive, DESKTOP, launchBrowser, newVisitorContext, PHONE } from './support/browser';
import { apiSignUp, verifyByMail } from './support/mail';
import { PAID_CALL, PAID_TOOL_ENV } from './support/paid-call';
import { type ServerProcess, startServerProcess } from './support/server';
import { newAccountContext, uniqueEmail } from './support/visitors';

/** Screenshots to look at by eye (git-ignored). */
const SHOTS = path.resolve(import.meta.dirname, '../.tmp/e2e-shots');
/** For a wait on the page: a limit that catches a hang, not slowness. */
const WAIT = { timeout: 30_000 };
const OPERATOR = uniqueEmail('operator');

/** A browser page of its own signed in with the operator's session `cookie`. */
async function operatorPage(
  browser: Browser,
  baseUrl: string,
  cookie: string,
  viewport: { width: number; height: number },
) {
  const context = await newVisitorContext(browser, viewport);
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl };
    }),
  );
  return context.newPage();
}

/** The page's width fits the viewport: nothing but a table's own box scrolls sideways. */
const pageFitsWidth = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** Opens an action's form, gives the reason and submits; waits for the sentence that says it is done. */
async function act(page: Page, open: () => Promise<void>, submit: string, reason: string, done: string | RegExp) {
  await open();
  const form = page.getByRole('form').filter({ has: page.getByRole('button', { name: submit }) });
  const button = form.getByRole('button', { name: submit });
  expect(await button.isDisabled(), `${submit} waits for a reason`).toBe(true);
  await form.getByRole('textbox', { name: 'Reason' }).fill(reason);
  await button.click();
  await page.getByText(done).waitFor(WAIT);
}

describe.runIf(inject('browserAvailable'))('the support console in the browser', () => {
  let browser: Browser;
  let server: ServerProcess;
  /** The operator's session: an account made through the API, verified through its mail. */
  let operatorCookie: string;
  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
    server = await startServerProcess({ env: { TRUST_PROXY_HOPS: '1', ADMIN_EMAILS: OPERATOR, ...PAID_TOOL_ENV } });
    operatorCookie = await apiSignUp(server.url, OPERATOR);
    await verifyByMail(server.url, OPERATOR, operatorCookie);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
  });

  it('lets an operator find a customer, grant tokens, refund a job once, flag and unflag; the audit log lists it', async () => {
    const baseUrl = server.url;
    for (const viewport of [DESKTOP, PHONE]) {
      // A customer who paid 1 token for an upscale they were unhappy with.
      const customer = await newAccountContext(browser, baseUrl, { verified: true, prefix: 'customer', viewport });
      const call = await customer.context.request.post(`${baseUrl}${PAID_CALL.path}`, {
        data: PAID_CALL.body,
        headers: { origin: baseUrl },
      });
      expect(call.status()).toBe(200);

      const page = await operatorPage(browser, baseUrl, operatorCookie, viewport);
      const shot = (name: string) =>
        page.screenshot({ path: `${SHOTS}/admin-${name}-${viewport.width}.png`, fullPage: true });
      await page.goto(`${baseUrl}/admin`);
      await page.getByRole('heading', { level: 1, name: 'Support console' }).waitFor(WAIT);
      await page.getByRole('region', { name: 'Activity' }).waitFor(WAIT);
      await appIsLive(page);
      expect(await pageFitsWidth(page)).toBe(true);
      await shot('overview');

      // Found by email, from the search box.
      await page.getByRole('searchbox', { name: 'Find an account' }).fill(customer.email);
      await page.getByRole('button', { name: 'Find' }).click();
      await page.getByRole('link', { name: customer.email }).click();
      await page.getByRole('heading', { level: 1, name: customer.email }).waitFor(WAIT);
      const facts = page.getByTestId('account-facts');
      await facts.getByText('19 tokens').waitFor(WAIT);

      await act(
        page,
        async () => {
          await page.getByRole('button', { name: 'Grant or deduct tokens' }).click();
          await page.getByRole('textbox', { name: 'Tokens' }).fill('100');
        },
        'Grant tokens',
        'Paid but credits not received',
        'Granted 100 tokens.',
      );
      await facts.getByText('119 tokens').waitFor(WAIT);
      const ledger = page.getByRole('region', { name: 'Ledger table' });
      await ledger.getByRole('row').filter({ hasText: 'grant' }).filter({ hasText: '+100' }).waitFor(WAIT);

      // The paid job: refunded once, then no Refund is offered.
      const refund = page.getByRole('button', { name: /^Refund the Image Upscaler job/ });
      expect(await refund.count()).toBe(1);
      await act(page, () => refund.click(), 'Refund job', 'The result was blurry', /^Refunded the Image Upscaler job/);
      await facts.getByText('120 tokens').waitFor(WAIT);
      await expect.poll(() => refund.count(), WAIT).toBe(0);
      await ledger.getByRole('row').filter({ hasText: 'refund' }).filter({ hasText: '+1' }).waitFor(WAIT);

      await act(
        page,
        () => page.getByRole('button', { name: 'Set fraud flag' }).click(),
        'Set fraud flag',
        'Card reported stolen',
        'The fraud flag is set.',
      );
      await page.getByRole('button', { name: 'Clear fraud flag' }).waitFor(WAIT);
      if (viewport === PHONE) await shot('account-flagged');
      await act(
        page,
        () => page.getByRole('button', { name: 'Clear fraud flag' }).click(),
        'Clear fraud flag',
        'The card owner confirmed it',
        'The fraud flag is cleared.',
      );
      const accountAudit = page.getByRole('region', { name: 'Audit entries table' }).getByTestId('audit-entry');
      await expect.poll(() => accountAudit.count(), WAIT).toBe(4);
      expect(await pageFitsWidth(page)).toBe(true);
      await page.getByRole('button', { name: 'Grant or deduct tokens' }).click();
      await shot('account');

      // The audit log: each action, who did it, on whom, and why.
      await page.getByRole('navigation', { name: 'Support console' }).getByRole('link', { name: 'Audit log' }).click();
      await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor(WAIT);
      const entries = page.getByTestId('audit-entry').filter({ hasText: customer.email });
      await expect.poll(() => entries.count(), WAIT).toBe(4);
      const reasons = await entries.allTextContents();
      for (const reason of [
        'Paid but credits not received',
        'The result was blurry',
        'Card reported stolen',
        'The card owner confirmed it',
      ]) {
        expect(reasons.some((text) => text.includes(reason) && text.includes(OPERATOR))).toBe(true);
      }
      expect(await pageFitsWidth(page)).toBe(true);
      await shot('audit');

      // A customer (signed in, verified) gets the not-found screen, as for an address with no page.
      const customerPage = await customer.context.newPage();
      await customerPage.goto(`${baseUrl}/admin`);
      await customerPage.getByText(/couldn’t find the page/).waitFor(WAIT);
      expect(await customerPage.getByRole('navigation', { name: 'Support console' }).count()).toBe(0);
      await customerPage.screenshot({ path: `${SHOTS}/admin-customer-${viewport.width}.png` });
      await customer.context.close();
      await page.context().close();
    }
    // Not among the pages crawlers are told of.
    expect(await (await fetch(`${baseUrl}/sitemap.xml`)).text()).not.toContain('/admin');
  });
});
