// A new user's walk in a real browser (issue 19): where the browser itself decides what the user
// sees — layout at 390 px, a file the browser cannot decode, focus after a link — checked there.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { appIsLive, DESKTOP, launchBrowser, newVisitorContext, PHONE } from './support/browser';
import { newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');

describe.runIf(inject('browserAvailable'))('a new user’s walk in the browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  async function visitor(viewport = DESKTOP): Promise<Page> {
    const context = await newVisitorContext(browser, viewport);
    return context.newPage();
  }

  it('“Sign in or create an account” on a tool page lands on the form with the email field focused', async () => {
    const page = await visitor(PHONE);
    await page.goto(`${baseUrl}/colorizer`);
    await page.getByRole('link', { name: 'Sign in or create an account' }).click();
    await page.waitForURL(`${baseUrl}/#sign-in`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    // In view once the scroll has come to rest (it may still be moving when the focus lands).
    await expect
      .poll(async () => {
        const email = await page.getByLabel('Email').boundingBox();
        return Boolean(email && email.y >= 0 && email.y + email.height <= PHONE.height);
      })
      .toBe(true);
    await page.context().close();
  });

  it('a link to /#sign-in followed before the app started (a full page load) still focuses the email field', async () => {
    const page = await visitor(PHONE);
    await page.goto(`${baseUrl}/#sign-in`);
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('email');
    await page.context().close();
  });

  it('the hero’s reset mode has no blank block under its content', async () => {
    const page = await visitor(PHONE);
    await page.goto(baseUrl);
    // Hydrated: a click on the prerendered button before then is lost when the app takes it over.
    await appIsLive(page);
    await page.getByRole('button', { name: 'Reset your Password' }).click();
    await page.getByRole('button', { name: 'Send Reset Link' }).waitFor();
    // The same card measured at each width (a width changes the layout, not the mode).
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      // The widest space between two parts of the card, and under the last one (its padding aside).
      const gap = await page.getByTestId('hero-auth').evaluate((card) => {
        // Parts that show (the empty message line is not drawn).
        const parts = [...card.children].map((child) => child.getBoundingClientRect()).filter((r) => r.height > 0);
        const gaps = parts.slice(1).map((part, i) => part.top - (parts[i] as DOMRect).bottom);
        const padding = Number.parseFloat(getComputedStyle(card).paddingBottom);
        gaps.push(card.getBoundingClientRect().bottom - padding - (parts.at(-1) as DOMRect).bottom);
        return Math.max(...gaps);
      });
      // The card's own gap is 16 px.
      expect(gap, `${viewport.width} px`).toBeLessThanOrEqual(24);
    }
    await page.context().close();
  });

  it('keeps “Remove Background · 2 tokens” on one line at 390 px, and refuses a text file named fake.png', async () => {
    const { page } = await newAccount(browser, baseUrl, {
      verified: true,
      prefix: 'walk',
      viewport: PHONE,
      at: '/background-remover',
    });
    // The session loaded (the balance shows) before a file is chosen, as the tool tests do.
    await page.getByTestId('token-balance').and(page.locator(':not([aria-busy])')).waitFor();
    const action = page.getByTestId('tool-action');
    await action.waitFor();
    const [label, cost] = await action
      .locator(':scope > span')
      .evaluateAll((spans) => spans.map((span) => span.getBoundingClientRect().top));
    expect(Math.abs((label ?? 0) - (cost ?? 100))).toBeLessThan(8);

    await page.getByTestId('image-input').setInputFiles({
      name: 'fake.png',
      mimeType: 'image/png',
      buffer: Buffer.from('just some text, not a picture'),
    });
    await page.getByText('This file is not a readable PNG, JPG or WEBP image. Please choose another.').waitFor();
    expect(await page.getByText('Error preparing image').count()).toBe(0);
    expect(await action.isDisabled()).toBe(true);
    await page.context().close();
  });
});
