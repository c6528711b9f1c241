// /developers in a real browser, at a phone's and a desktop's width: prerendered, the guide's
// headings, no page wider than the screen (code scrolls inside its block), the landing footer's link
// to it, and the OpenAPI document it links to. One page for the file: the landing page is loaded
// once, and the footer's link and a resize bring the guide at each width. Screenshots go to
// .tmp/e2e-shots/ (not committed).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { axeViolations } from './support/axe';
import { appIsLive, DESKTOP, launchBrowser, openPage, PHONE } from './support/browser';

const baseUrl = inject('baseUrl');
const SHOTS = path.resolve(import.meta.dirname, '../.tmp/e2e-shots');

const HEADINGS = [
  'Get a key',
  'Your first call',
  'Tools',
  'Errors',
  'Rate limits',
  'Webhooks',
  'Batches',
  'Result files',
  'OpenAPI',
];

describe.runIf(inject('browserAvailable'))('the /developers page in the browser', () => {
  let browser: Browser;
  let page: Page;
  let errors: string[];
  beforeAll(async () => {
    browser = await launchBrowser();
    mkdirSync(SHOTS, { recursive: true });
    ({ page, errors } = await openPage(browser, PHONE));
    await page.goto(baseUrl);
    await appIsLive(page);
  });
  afterAll(() => browser?.close());

  const footerLink = () => page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Developers' });

  /** The guide, reached from the landing page's footer as a visitor reaches it. */
  async function openGuide() {
    if (new URL(page.url()).pathname === '/developers') return;
    await footerLink().scrollIntoViewIfNeeded();
    await footerLink().click();
    await page.getByRole('heading', { level: 1, name: 'Picture Palette API' }).waitFor();
  }

  it('is linked from the landing page footer, and links to the OpenAPI document', async () => {
    await page.setViewportSize(PHONE);
    await openGuide();
    expect(new URL(page.url()).pathname).toBe('/developers');
    const href = await page.getByRole('link', { name: 'OpenAPI document' }).getAttribute('href');
    expect(href).toBe('/api/openapi.json');
    const document = await page.evaluate(async (url) => (await fetch(url)).json(), href as string);
    expect(document.openapi).toBe('3.1.0');
    expect(errors).toEqual([]);
  });

  it('is prerendered: the guide is in the HTML the server sends, before any script runs', async () => {
    const response = await fetch(`${baseUrl}/developers`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Picture Palette API</h1>');
  });

  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`reads at ${viewport.width} px: the headings, every tool, nothing wider than the screen`, async () => {
      await page.setViewportSize(viewport);
      await openGuide();
      expect(await page.title()).toContain('Developers');
      expect(await page.getByRole('heading', { level: 2 }).allTextContents()).toEqual(HEADINGS);
      expect(await page.getByRole('heading', { level: 3 }).count()).toBe(10);
      // The examples name the address the page was served from once it runs.
      await expect
        .poll(() =>
          page
            .getByRole('region', { name: 'Your first call', exact: true })
            .getByText(/^curl /)
            .first()
            .textContent(),
        )
        .toContain(`${new URL(baseUrl).origin}/api/remove-background`);
      // Each tool's price is this server's (the local engine's Creative Upscaler is not the list's 70 tokens).
      const served = (await (await fetch(`${baseUrl}/api/tools`)).json()) as { tools: { id: string; price: number }[] };
      const creative = served.tools.find((tool) => tool.id === 'creative-upscaler')?.price;
      await expect
        .poll(() => page.getByRole('region', { name: 'Creative Upscaler' }).textContent())
        .toContain(`${creative} token${creative === 1 ? '' : 's'} per request`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      // axe, as e2e/accessibility.test.ts runs it over the spec's routes.
      expect(await axeViolations(page, `/developers (${viewport.width} px)`)).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `developers-${name}.png`) });
      for (const section of ['Your first call', 'Tools', 'Errors', 'Webhooks', 'Batches']) {
        const region = page.getByRole('region', { name: section, exact: true });
        const file = `developers-${name}-${section.toLowerCase().replaceAll(' ', '-')}.png`;
        // Where it is on the page (not in the viewport); the tools' list is long: its top is enough to look at.
        const box = await region.evaluate((element) => {
          const rect = element.getBoundingClientRect();
          return { y: rect.top + window.scrollY, height: rect.height };
        });
        await page.screenshot({
          path: path.join(SHOTS, file),
          fullPage: true,
          clip: { x: 0, y: box.y, width: viewport.width, height: Math.min(box.height, 1400) },
        });
      }
      expect(errors).toEqual([]);
    });
  }
});
