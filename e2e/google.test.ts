// Google sign-in in a real browser: the popup goes to the (local) provider, comes back through
// our callback to popup-done.html, tells the opener, and the app lands on /text-to-pic signed in.
import { rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startOidcServer } from '../test/support/oidc-server';
import { launchBrowser, newVisitorContext, openFromMenu } from './support/browser';
import { type ServerProcess, startServerProcess } from './support/server';

// One browser for the file; each test is a visitor of its own (a context).
let browser: Browser;
beforeAll(async () => {
  if (inject('browserAvailable')) browser = await launchBrowser();
});
afterAll(() => browser?.close());

describe.runIf(inject('browserAvailable'))('Google sign-in in the browser', () => {
  let oidc: Awaited<ReturnType<typeof startOidcServer>>;
  let server: ServerProcess;
  beforeAll(async () => {
    oidc = await startOidcServer();
    server = await startServerProcess({ env: oidc.serverEnv });
  });
  afterAll(async () => {
    await server?.stop();
    if (server) rmSync(server.dataDir, { recursive: true, force: true });
    await oidc?.stop();
  });

  it('signs in through the popup and lands on Text to Pic with 20 tokens', async () => {
    oidc.nextUser({ sub: 'g-e2e-1', email: 'popup.user@gmail.test', emailVerified: true, name: 'Popup User' });
    const context = await newVisitorContext(browser);
    const page = await context.newPage();
    await page.goto(server.url);
    const popupOpened = page.waitForEvent('popup');
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    const popup = await popupOpened;
    await popup.waitForEvent('close', { timeout: 20_000 });

    await page.waitForURL(`${server.url}/text-to-pic`);
    await expect.poll(() => page.getByTestId('token-balance').textContent()).toContain('20');
    await openFromMenu(page, 'User Settings');
    // The sign-in details card shows the address too: the account summary's row is the one asserted.
    await expect.poll(() => page.getByTestId('account-email').textContent()).toBe('popup.user@gmail.test');
    await page.getByText('Email verified').waitFor();
    await context.close();
  });
});

describe.runIf(inject('browserAvailable'))('Google sign-in when it is not configured', () => {
  it('explains instead of failing silently', async () => {
    const context = await newVisitorContext(browser);
    const page = await context.newPage();
    let popups = 0;
    page.on('popup', () => {
      popups++;
    });
    await page.goto(inject('baseUrl'));
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await expect
      .poll(() => page.getByTestId('hero-auth-message').textContent())
      .toBe('Google sign-in is not configured on this server.');
    expect(popups).toBe(0);
    await context.close();
  });
});
