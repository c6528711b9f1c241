// axe over every route at a phone's and a desktop's width, for a visitor and for a signed-in user
// (issue 19, item 11): no violations. Each page is checked once its content has drawn. The first
// route is a page load; the others are reached through the app's router, as a user moves around it:
// a page is what it would be after its own load (which hydrates to the same markup), and a load per
// route was most of this file's time (issue 55).
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ALL_ROUTES } from '../src/contract/routes';
import { axeViolations as check } from './support/axe';
import { appIsLive, DESKTOP, goInApp, launchBrowser, newVisitorContext, PHONE } from './support/browser';
import { newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');

/** The spec's routes and the pages added since (policy pages, the password reset form, the deleted account's page). */
const ROUTES = [...ALL_ROUTES, '/terms', '/privacy', '/reset-password', '/account-deleted'];

/** Shows `route` (through the app's router unless `load`), waits for its content to draw, and runs axe. */
async function violations(page: Page, route: string, { load = false } = {}): Promise<string[]> {
  if (load) {
    await page.goto(`${baseUrl}${route}`);
    await appIsLive(page);
  } else await goInApp(page, route);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  // Let the first auth check and lazy parts settle (no skeletons left).
  await page.waitForFunction(() => !document.querySelector('[aria-busy="true"]'), null, { timeout: 15_000 });
  return check(page, route);
}

/** Every route: the first one loaded, the others reached in the app. */
async function everyRoute(page: Page, { loadFirst = true } = {}): Promise<string[]> {
  const found: string[] = [];
  for (const [i, route] of ROUTES.entries())
    found.push(...(await violations(page, route, { load: loadFirst && i === 0 })));
  return found;
}

describe.runIf(inject('browserAvailable'))('accessibility of every route (axe)', () => {
  let browser: Browser;
  let visitor: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await visitor?.close();
    await browser?.close();
  });

  for (const [label, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`has no violations for a visitor on a ${label}`, async () => {
      // One visitor for both widths: the page is loaded again at this one.
      visitor ??= await newVisitorContext(browser, viewport);
      const page = visitor.pages()[0] ?? (await visitor.newPage());
      await page.setViewportSize(viewport);
      expect(await everyRoute(page)).toEqual([]);
    }, 240_000);

    it(`has no violations for a signed-in user on a ${label}`, async () => {
      const { page } = await newAccount(browser, baseUrl, { verified: true, prefix: 'axe', viewport, at: ROUTES[0] });
      await appIsLive(page);
      const found = await everyRoute(page, { loadFirst: false });

      // The controls this wave adds, in their open states: the account menu, the password toggle
      // (after sign-out), and /tokens naming the tool that needed more tokens, with the way back.
      await goInApp(page, '/');
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('button', { name: 'Sign out' }).waitFor();
      found.push(...(await check(page, '/ (account menu open)')));
      // No tool on this server costs more than a new account's 20 tokens (the local Creative
      // Upscaler is priced like the Image Upscaler, decision 039), so the draft a tool page keeps
      // when it sends a user short of tokens to /tokens is kept here as that page keeps it.
      // Kept from another page: the tool's own page takes its draft back as it opens.
      await goInApp(page, '/creations');
      await page.evaluate((draft) => sessionStorage.setItem('pp-tool-draft', JSON.stringify(draft)), {
        toolId: 'creative-upscaler',
        cost: 70,
        settings: {},
      });
      await goInApp(page, '/tokens');
      await page.getByRole('link', { name: 'Back to Creative Upscaler' }).waitFor();
      found.push(...(await check(page, '/tokens (sent by a tool)')));
      // User Settings with its forms open (issue 38): email, password, deletion.
      await goInApp(page, '/user-settings');
      await page.getByRole('button', { name: 'Change email…' }).click();
      await page.getByRole('button', { name: 'Change password…' }).click();
      await page.getByRole('button', { name: 'Delete account' }).click();
      await page.getByRole('button', { name: 'Delete my account for good' }).waitFor();
      found.push(...(await check(page, '/user-settings (forms open)')));
      await goInApp(page, '/');
      await page.getByRole('button', { name: 'Account' }).click();
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('button', { name: 'Show password' }).click();
      found.push(...(await check(page, '/ (password shown)')));
      await page.context().close();
      expect(found).toEqual([]);
    }, 240_000);
  }
});
