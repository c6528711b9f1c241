// Reading mail as a developer does on a fresh machine: the /dev/mail outbox page.
import type { Page } from 'playwright-core';
import { cookieHeaderFrom } from './server';

/** Opens the newest mail to `to` whose subject matches, and clicks its button link. */
export async function followMailLink(page: Page, baseUrl: string, to: string, subject: RegExp, linkName: RegExp) {
  for (let attempt = 0; attempt < 50; attempt++) {
    await page.goto(`${baseUrl}/dev/mail`);
    const entry = page.getByRole('link').filter({ hasText: subject }).filter({ hasText: to }).first();
    if ((await entry.count()) > 0) {
      await entry.click();
      // The link is read from the preview and opened in this tab, as its click would: a click inside
      // the sandboxed srcdoc frame (top navigation by user activation) intermittently did not
      // navigate under CI load, and the outbox's frame is developer tooling, not what these tests test.
      const href = await page.frameLocator('iframe').getByRole('link', { name: linkName }).first().getAttribute('href');
      if (!href) throw new Error(`mail to ${to} matching ${subject} has no link named ${linkName}`);
      await page.goto(href);
      return;
    }
    await page.waitForTimeout(200); // the account-setup job sends it within a poll or two
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

/** The password of the accounts `verifiedApiUser` makes, for a client that signs in with them later. */
export const API_USER_PASSWORD = 'a long enough password 42';

/** Signs up through the API as a client without a browser would; answers the session's Cookie header. */
export async function apiSignUp(
  baseUrl: string,
  email: string,
  options: { password?: string; headers?: Record<string, string> } = {},
): Promise<string> {
  const signUp = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { origin: baseUrl, 'content-type': 'application/json', ...options.headers },
    body: JSON.stringify({ email, password: options.password ?? API_USER_PASSWORD, name: 'api user' }),
  });
  if (signUp.status !== 200) throw new Error(`sign-up answered ${signUp.status}`);
  return cookieHeaderFrom(signUp);
}

/** Follows the verification link mailed to `email` (read from the /dev/mail outbox) with the session `cookie`. */
export async function verifyByMail(
  baseUrl: string,
  email: string,
  cookie: string,
  headers: Record<string, string> = {},
): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const outbox = await (await fetch(`${baseUrl}/dev/mail`)).text();
    const id = [...outbox.matchAll(/href="[^"]*\/dev\/mail\/([0-9a-f-]{36})"[\s\S]*?<\/a>/g)].find((m) =>
      m[0].includes(email),
    )?.[1];
    if (id) {
      const text = await (await fetch(`${baseUrl}/dev/mail/${id}`)).text();
      const link = text.match(/https?:\/\/[^\s"<]*verify-email[^\s"<]*/)?.[0]?.replaceAll('&amp;', '&');
      if (!link) throw new Error(`mail ${id} to ${email} has no verification link`);
      const verified = await fetch(link, { redirect: 'manual', headers: { cookie, ...headers } });
      if (verified.status >= 400) throw new Error(`verification answered ${verified.status}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 200)); // the account-setup job sends it within a poll or two
  }
  throw new Error(`no verification mail to ${email}`);
}

/**
 * Signs up through the API and follows the verification link from the /dev/mail outbox, as a
 * client without a browser would; answers the session's Cookie header.
 */
export async function verifiedApiUser(baseUrl: string, email: string): Promise<string> {
  const cookie = await apiSignUp(baseUrl, email);
  await verifyByMail(baseUrl, email, cookie);
  return cookie;
}
