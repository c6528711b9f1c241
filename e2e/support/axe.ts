// axe-core over a page as it is now: the accessibility checks of the browser tests.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/** Violations on the page as it is now, as "label rule: target" lines; empty when there are none. */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  // Legacy mode runs axe.run in the page itself: the default opens a blank page per analysis to merge
  // frames' results (a renderer process each, about half of each check's CPU), and our pages have no frames.
  // resultTypes: axe checks every rule as before, and lists every node only for the violations (passes
  // keep one node a rule): building selectors for every passing node is work nobody reads.
  // axe-core stays in the page between checks of one document (the app's own navigations keep it): its
  // 650 kB source is sent only to a page without it, where AxeBuilder sent it twice for every check.
  const inPage = await page.evaluate(() => 'axe' in window);
  const result = await new AxeBuilder({ page, ...(inPage ? { axeSource: 'void 0' } : {}) })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] })
    .analyze();
  expect(result.passes.length, label).toBeGreaterThan(0); // axe did run over the page
  return result.violations.flatMap((v) => v.nodes.map((n) => `${label} ${v.id}: ${n.target.join(' ')} (${v.help})`));
}
