// Visitors of the browser tests: accounts made through the landing page's hero (the
// verification link read from the outbox), and support's admin tool on a stopped server's data.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DESKTOP, newVisitorContext, nextVisitorAddress } from './browser';
import { apiSignUp, verifyByMail } from './mail';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** `npm run admin`'s script: the admin tool from the server's build. */
const ADMIN = path.join(ROOT, 'scripts/admin.mjs');
const PASSWORD = 'palette visitor 42';
let count = 0;

export const uniqueEmail = (prefix: string) => `${prefix}${++count}.${Date.now()}@example.com`;

/** Signs up (or in, when the account exists) through the hero; the app then opens Text to Pic. */
export async function throughHero(page: Page, baseUrl: string, email: string) {
  await page.goto(baseUrl);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Continue with Email' }).click();
  await page.waitForURL(`${baseUrl}/text-to-pic`);
}

/**
 * A new browser visitor with an account of its own, on Text to Pic as the hero's sign-up leaves it
 * (or on `at`, the page the test is about: one page load, not two). The account is made through the
 * API (and verified through the mailed link when asked), its session given to the browser: the
 * hero's form and the mailed link in the browser are accounts.test.ts's subject, and for every other
 * test they were five page loads of setup.
 */
export async function newAccount(
  browser: Browser,
  baseUrl: string,
  options: { verified: boolean; prefix?: string; viewport?: { width: number; height: number }; at?: string },
): Promise<{ page: Page; email: string }> {
  const { context, email } = await newAccountContext(browser, baseUrl, options);
  const page = await context.newPage();
  await page.goto(`${baseUrl}${options.at ?? '/text-to-pic'}`);
  return { page, email };
}

/** newAccount's browser context, signed in, with no page open yet. */
export async function newAccountContext(
  browser: Browser,
  baseUrl: string,
  options: { verified: boolean; prefix?: string; viewport?: { width: number; height: number } },
): Promise<{ context: BrowserContext; email: string }> {
  const address = nextVisitorAddress();
  const context = await newVisitorContext(browser, options.viewport ?? DESKTOP, address);
  const email = uniqueEmail(options.prefix ?? 'buyer');
  const headers = { 'x-forwarded-for': address };
  const cookie = await apiSignUp(baseUrl, email, { password: PASSWORD, headers });
  if (options.verified) await verifyByMail(baseUrl, email, cookie, headers);
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl };
    }),
  );
  return { context, email };
}

/** Runs `npm run admin -- <args>` on a data directory whose server is stopped; throws on failure. */
export function adminCli(dataDir: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [ADMIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`admin ${args.join(' ')} failed: ${run.stderr}`);
  return run.stdout;
}

/** The number in the page's token-balance widget, or null when it shows none. */
export async function shownBalance(page: Page): Promise<number | null> {
  const text = await page.getByTestId('token-balance').first().textContent();
  const match = text?.replace(/,/g, '').match(/(\d+) tokens?/);
  return match ? Number(match[1]) : null;
}
