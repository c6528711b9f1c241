// One price everywhere (issue 54): the landing page (hero, tool cards, FAQ), /tokens and /developers
// state this server's price of each tool, the one GET /api/tools gives and the tool page charges,
// and name the tools given as free previews, in the prerendered HTML and after in-app navigation, at
// a phone's and a desktop's width. Screenshots go to .tmp/e2e-shots/ (not committed).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { ToolInfo, ToolsInfo } from '../src/contract/tool-responses';
import { TOOLS, type ToolDefinition } from '../src/contract/tools';
import { appIsLive, DESKTOP, launchBrowser, PHONE } from './support/browser';
import { newAccount } from './support/visitors';

const baseUrl = inject('baseUrl');
const SHOTS = path.resolve(import.meta.dirname, '../.tmp/e2e-shots');

type Served = ToolInfo & { tool: ToolDefinition };

const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Every "<tool> 2 tokens per use", "<tool> from 1 token per image" in `text` whose tool `served` does
 * not price so here: a tool named with another price, or with a price where it is a free preview.
 */
function wrongPrices(text: string, served: readonly Served[]): string[] {
  return served.flatMap(({ tool, price, freePreview }) => {
    const stated = new RegExp(`${literally(tool.title)}:? (?:from )?([\\d,]+) tokens? per (?:image|use|request)`, 'g');
    return [...text.matchAll(stated)]
      .filter((match) => freePreview || Number(match[1]?.replace(/,/g, '')) !== price)
      .map((match) => `${match[0]} (here: ${freePreview ? 'a free preview' : `${price} per unit`})`);
  });
}

/** What a tool card, the hero and the FAQ say for a tool here. */
const perUnit = ({ tool, price }: Served) =>
  `${price} ${price === 1 ? 'token' : 'tokens'} per ${tool.costPer === 'image' ? 'image' : 'use'}`;

/** What a tool card says for a tool here. */
const cardPrice = (entry: Served) => (entry.freePreview ? 'Free preview' : perUnit(entry));

/** What /developers says for a tool here (the API's words: "per request"). */
const guidePrice = ({ tool, price, freePreview }: Served) =>
  freePreview ? 'Free preview' : `${price} token${price === 1 ? '' : 's'} per ${tool.costPer}`;

describe.runIf(inject('browserAvailable'))('one price everywhere', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let served: Served[];
  let previews: Served[];
  let paid: Served[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const answer = (await (await fetch(`${baseUrl}/api/tools`)).json()) as ToolsInfo;
    served = TOOLS.map((tool) => {
      const info = answer.tools.find((entry) => entry.id === tool.id);
      if (!info) throw new Error(`/api/tools leaves out ${tool.id}`);
      return { ...info, tool };
    });
    previews = served.filter((entry) => entry.freePreview);
    paid = served.filter((entry) => !entry.freePreview).sort((a, b) => a.price - b.price);
    browser = await launchBrowser();
    // One signed-in user (20 tokens), so that /tokens shows what the balance buys; one context throughout.
    page = (await newAccount(browser, baseUrl, { verified: false, prefix: 'prices' })).page;
    context = page.context();
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('prerenders the landing page and /developers with this server’s prices, before any script runs', async () => {
    const html = await context.newPage();
    await html.route(/\.js$/, (route) => route.abort());
    await html.goto(baseUrl);
    const cards = await html
      .locator('.pp-tool-card')
      .evaluateAll((elements) =>
        elements.map((card) => [
          card.querySelector('.pp-tool-card__title')?.textContent,
          card.querySelector('.pp-tool-card__cost')?.textContent,
        ]),
      );
    expect(Object.fromEntries(cards)).toEqual(
      Object.fromEntries(served.map((entry) => [entry.tool.title, cardPrice(entry)])),
    );
    await html.goto(`${baseUrl}/developers`);
    for (const entry of served) {
      const cost = html.getByRole('region', { name: entry.tool.title, exact: true }).locator('.pp-dev__cost');
      expect(await cost.textContent(), entry.tool.id).toBe(guidePrice(entry));
    }
    await html.close();
  });

  for (const [name, viewport] of [
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ] as const) {
    it(`at ${viewport.width} px: the landing page, its FAQ, /tokens and /developers agree with /api/tools`, async () => {
      await page.setViewportSize(viewport);
      await page.goto(baseUrl);
      await appIsLive(page);

      // The hero: Text to Pic's price where it is real here, else that it is a free preview.
      const textToPic = served.find((entry) => entry.tool.id === 'text-to-pic') as Served;
      const hero = (await page.getByTestId('hero-price').textContent()) ?? '';
      if (!textToPic.freePreview) expect(hero).toBe(`Text to Pic from ${perUnit(textToPic)}`);
      else if (paid[0]) expect(hero).toBe(`Text to Pic is a free preview here. Other tools from ${perUnit(paid[0])}.`);
      else expect(hero).toContain('Every tool is a free preview here');
      await page.getByTestId('hero-price').scrollIntoViewIfNeeded();
      await page.screenshot({ path: path.join(SHOTS, `prices-${name}-hero.png`) });

      // The ten tool cards: each one's price here, or "Free preview".
      const tools = page.getByRole('region', { name: 'Make More For Cheaper' });
      await tools.locator('.pp-tool-card').first().scrollIntoViewIfNeeded();
      for (const entry of served) {
        const card = tools.getByRole('link', { name: new RegExp(`^${literally(entry.tool.title)}`) });
        expect(await card.locator('.pp-tool-card__cost').textContent(), entry.tool.id).toBe(cardPrice(entry));
      }
      await tools.screenshot({ path: path.join(SHOTS, `prices-${name}-landing-tools.png`) });

      // The FAQ: every tool's price as here, the free previews named, the trial with real tools only.
      const faq = page.getByTestId('faq');
      for (const question of ['How do tokens work?', 'How many tokens does each tool use?', 'Is there a free trial?']) {
        await faq.getByRole('button', { name: question }).click();
      }
      const costs = (await faq.locator('li', { hasText: 'How many tokens does each tool use?' }).textContent()) ?? '';
      for (const entry of paid) expect(costs).toContain(`${entry.tool.title} ${perUnit(entry)}`);
      const previewSentence = costs.split('. ').find((sentence) => sentence.includes('free preview')) ?? '';
      for (const entry of previews) expect(previewSentence, entry.tool.id).toContain(entry.tool.title);
      if (textToPic.freePreview) {
        expect(await faq.locator('li', { hasText: 'How do tokens work?' }).textContent()).toContain(
          'Here Text to Pic is a free preview for now',
        );
      }
      const trial = (await faq.locator('li', { hasText: 'Is there a free trial?' }).textContent()) ?? '';
      for (const entry of previews) expect(trial, entry.tool.id).not.toContain(entry.tool.title);
      await faq
        .getByRole('button', { name: 'How many tokens does each tool use?' })
        .screenshot({ path: path.join(SHOTS, `prices-${name}-faq-question.png`) });
      await faq.screenshot({ path: path.join(SHOTS, `prices-${name}-faq.png`) });
      expect(wrongPrices((await page.locator('main').textContent()) ?? '', served)).toEqual([]);

      // /tokens, by the top bar's link: what the balance (20 tokens) buys, counted in a real tool.
      await page.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: 'Tokens' }).click();
      await page.waitForURL(`${baseUrl}/tokens`);
      const hint = (await page.getByTestId('tokens-balance-hint').textContent()) ?? '';
      const example = paid.find((entry) => entry.tool.id === 'text-to-pic') ?? paid[0];
      if (example) {
        const count = Math.floor(20 / example.price);
        const unit = example.tool.costPer === 'image' ? 'image' : 'use';
        expect(hint).toBe(
          `Enough for ${count} ${example.tool.title} ${count === 1 ? unit : `${unit}s`}. Tokens never expire.`,
        );
      } else {
        expect(hint).toContain('Every tool is a free preview here');
      }
      await page.screenshot({ path: path.join(SHOTS, `prices-${name}-tokens.png`) });

      // Home by the menu (behind its toggle on a phone), then /developers by the footer's link.
      if (viewport === PHONE) await page.getByRole('button', { name: 'Open menu' }).click();
      await page.getByRole('navigation', { name: 'Main menu' }).getByRole('link', { name: 'Home' }).click();
      await page.waitForURL(`${baseUrl}/`);
      await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Developers' }).click();
      await page.waitForURL(`${baseUrl}/developers`);
      for (const entry of served) {
        const cost = page.getByRole('region', { name: entry.tool.title, exact: true }).locator('.pp-dev__cost');
        expect(await cost.textContent(), entry.tool.id).toBe(guidePrice(entry));
      }
      const guide = page.getByRole('region', { name: 'Tools', exact: true });
      if (previews.length > 0 && paid.length > 0) {
        expect(await guide.textContent()).toContain('A tool marked “Free preview” answers with a labelled sample');
      }
      await guide.screenshot({ path: path.join(SHOTS, `prices-${name}-developers-tools.png`) });
    });
  }
});
