// Accounts in a real browser against the real server: sign-up to verified (mail read from the
// local outbox), the watcher, the link opened signed out or signed in as someone else, wrong
// password, reset, logout and the resend countdown. Each test is a visitor of its own (a context);
// where the hero's sign-up is not the subject, the account is made through the API and its session
// given to the browser, and the test opens the page it is about: one page load, not three.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Profile } from '../src/contract/accounts';
import { DESKTOP, launchBrowser, newVisitorContext, nextVisitorAddress, openFromMenu, PHONE } from './support/browser';
import { apiSignUp, followMailLink } from './support/mail';
import { newAccount, newAccountContext } from './support/visitors';

const baseUrl = inject('baseUrl');
let counter = 0;
const newEmail = () => `e2e${++counter}.${Date.now()}@example.com`;

describe.runIf(inject('browserAvailable'))('accounts in the browser', () => {
  let browser: Browser;
  let context: BrowserContext | undefined;
  let page: Page;
  /** The visitor's client address: its API calls come from the same place as its browser. */
  let address: string;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** A signed-out visitor on no page yet. */
  async function visitor(viewport = DESKTOP) {
    address = nextVisitorAddress();
    context = await newVisitorContext(browser, viewport, address);
    page = await context.newPage();
  }

  /** A visitor signed in to a new, unverified account (made through the API), on `route`. */
  async function signedInOn(route: string, viewport = DESKTOP) {
    ({ page } = await newAccount(browser, baseUrl, { verified: false, prefix: 'e2e', viewport, at: route }));
    context = page.context();
  }

  /** An account made through the API from the visitor's address, as another device would make it. */
  const signedUpElsewhere = (email: string, password?: string) =>
    apiSignUp(baseUrl, email, { password, headers: { 'x-forwarded-for': address } });

  const message = () => page.getByTestId('hero-auth-message');

  async function signUpThroughHero(email: string, password = 'correct horse 42') {
    await page.goto(baseUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Continue with Email' }).click();
    await page.waitForURL(`${baseUrl}/text-to-pic`);
  }

  it('signs up, shows 20 tokens, and turns verified when the mailed link is followed', async () => {
    await visitor();
    const email = newEmail();
    await signUpThroughHero(email);
    await expect.poll(() => page.getByTestId('token-balance').textContent()).toContain('20');

    await openFromMenu(page, 'User Settings');
    // The account card's address (the sign-in details card, loaded on its own, shows it a second time).
    await page.getByTestId('account-email').filter({ hasText: email }).waitFor();
    await page.getByRole('button', { name: 'Verify Email' }).waitFor();

    // The link, followed in another tab: this tab's watcher notices without a reload.
    const mailTab = await page.context().newPage();
    await followMailLink(mailTab, baseUrl, email, /verify/i, /verify/i);
    await mailTab.waitForURL(`${baseUrl}/text-to-pic`);
    await page.getByText('Email verified').waitFor({ timeout: 15_000 });
    expect(await page.getByRole('button', { name: 'Verify Email' }).count()).toBe(0);
  });

  /** GET /api/profile as the page's own session sees it. */
  const profileOf = (tab: Page) => tab.evaluate(async () => (await fetch('/api/profile')).json() as Promise<Profile>);

  it('signs in a signed-out browser that opens its own verification link', async () => {
    await visitor(); // signed out: the mail is read on another device than the sign-up's
    const email = newEmail();
    await signedUpElsewhere(email);

    await followMailLink(page, baseUrl, email, /verify/i, /verify/i);
    await page.waitForURL(`${baseUrl}/text-to-pic`);
    await expect.poll(() => page.getByTestId('token-balance').first().textContent()).toContain('20');
    expect(await profileOf(page)).toMatchObject({ email, emailVerified: true });
  });

  it('keeps a browser signed in as its own account when it opens another account’s link', async () => {
    const attackerEmail = newEmail();
    const attackerCookie = await apiSignUp(baseUrl, attackerEmail, {
      password: 'attacker password 1',
      headers: { 'x-forwarded-for': nextVisitorAddress() },
    });

    let victimEmail: string;
    ({ context, email: victimEmail } = await newAccountContext(browser, baseUrl, {
      verified: false,
      prefix: 'victim',
    }));
    page = await context.newPage();
    // The victim follows the link the attacker sent: the attacker's own, unverified account's.
    await followMailLink(page, baseUrl, attackerEmail, /verify/i, /verify/i);
    await page.waitForURL(/\/text-to-pic\?verifiedEmail=/);
    await expect
      .poll(() => page.getByTestId('verified-elsewhere').textContent())
      .toBe(`Email verified for ${attackerEmail}. You are still signed in as ${victimEmail}.`);
    expect(await profileOf(page)).toMatchObject({ email: victimEmail, emailVerified: false });
    await openFromMenu(page, 'User Settings');
    await page.getByTestId('account-email').filter({ hasText: victimEmail }).waitFor();
    expect(await page.getByText(attackerEmail).count()).toBe(0);

    const attackerProfile = await fetch(`${baseUrl}/api/profile`, { headers: { cookie: attackerCookie } });
    expect(await attackerProfile.json()).toMatchObject({ email: attackerEmail, emailVerified: true });
  });

  it('tells a returning user with a wrong password what to do', async () => {
    await visitor();
    const email = newEmail();
    await signedUpElsewhere(email);
    await page.goto(baseUrl);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('not my password');
    await page.getByRole('button', { name: 'Continue with Email' }).click();
    await expect
      .poll(() => message().textContent(), { timeout: 30_000 })
      .toBe('Please try signing in or reset your password.');
    expect(page.url()).toBe(`${baseUrl}/`);
  });

  it('resets a forgotten password through the mailed link', async () => {
    await visitor();
    const email = newEmail();
    await signedUpElsewhere(email, 'first password 1');

    await page.goto(baseUrl);
    await page.getByRole('button', { name: 'Reset your Password' }).click();
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send Reset Link' }).click();
    await expect.poll(() => message().textContent()).toBe('Password reset email sent. Check your inbox for the link.');
    await page.getByRole('button', { name: 'Reset your Password' }).waitFor(); // back in login mode

    await followMailLink(page, baseUrl, email, /reset/i, /reset/i);
    await page.waitForURL(/\/reset-password\?token=/);
    await page.getByLabel('New password', { exact: true }).fill('second password 2');
    await page.getByLabel('Confirm new password', { exact: true }).fill('second password 2');
    await page.getByRole('button', { name: 'Update password' }).click();
    await page.getByText('Your password has been updated.').waitFor();
    await page.getByRole('button', { name: 'Back to sign in' }).click();

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('second password 2');
    await page.getByRole('button', { name: 'Continue with Email' }).click();
    await page.waitForURL(`${baseUrl}/text-to-pic`);
  });

  it('logs out from User Settings and returns to the landing page', async () => {
    await signedInOn('/user-settings');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.waitForURL(`${baseUrl}/`);
    await page.getByRole('button', { name: 'Continue with Email' }).waitFor();
    const session = await page.evaluate(async () => (await fetch('/api/auth/get-session')).json());
    expect(session).toBeNull();
  });

  it('shows the Picture Palette button to a signed-in user instead of the form', async () => {
    await signedInOn('/');
    await page.getByTestId('hero-auth').getByRole('button', { name: 'Picture Palette', exact: true }).waitFor();
    expect(await page.getByLabel('Password', { exact: true }).count()).toBe(0);
  });

  it('counts down before another verification mail may be sent', async () => {
    await signedInOn('/user-settings', PHONE);
    const verify = page.getByRole('button', { name: 'Verify Email' });
    await verify.click(); // the sign-up mail went out moments ago: the server says wait
    const countdown = page.getByRole('button', { name: /^Resend in \d+s$/ });
    await countdown.waitFor();
    expect(await countdown.isDisabled()).toBe(true);
    const first = Number((await countdown.textContent())?.match(/\d+/)?.[0]);
    expect(first).toBeGreaterThan(40);
    expect(first).toBeLessThanOrEqual(60);
    await expect
      .poll(async () => Number((await countdown.textContent())?.match(/\d+/)?.[0]), { timeout: 5_000 })
      .toBeLessThan(first);
  });
});
