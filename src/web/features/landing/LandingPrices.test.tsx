// The landing page states this server's prices (GET /api/tools), as the tool pages do: the local
// engine's Creative Upscaler at 1 token, the tools the demo serves named as free previews.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TOOLS } from '../../../contract/tools';
import { renderApp } from '../../app/test-utils';
import { forgetPackages } from '../../lib/purchases/purchase-api';
import { listInWords } from '../../lib/tool-prices';
import { installFakeApi, signedOutRoutes } from '../../test-support/fake-api';
import { DEMO_SERVER_TOOLS, localServerTools, REPLICATE_SERVER_TOOLS } from '../../test-support/tool-fixtures';

/** The default set-up's local engines and their prices here (decision 039); the demo serves the rest. */
const LOCAL_ENGINES = {
  'background-remover': 2,
  'creative-upscaler': 1,
  'fix-a-face': 2,
  'background-swap': 'preview',
  'image-upscaler': 1,
  'image-analyzer': 1,
} as const;
const LOCAL_SERVER_TOOLS = localServerTools(LOCAL_ENGINES);
/** The tools given as free previews there: the demo's and Background Swap's. */
const localPreviews = TOOLS.filter((tool) => {
  const price: number | 'preview' | undefined = LOCAL_ENGINES[tool.id as keyof typeof LOCAL_ENGINES];
  return price === undefined || price === 'preview';
}).map((tool) => tool.title);

/** The landing page, with `tools` as the server's answer to GET /api/tools (none: it answers 404). */
async function openLanding(tools?: { body: unknown }) {
  forgetPackages();
  const api = installFakeApi({ ...signedOutRoutes(), ...(tools ? { 'GET /api/tools': tools } : {}) });
  renderApp('/');
  await screen.findByRole('heading', { level: 1 });
  return api;
}

/** Each tool card's title and the price it shows. */
function toolCards(): Record<string, string> {
  const section = screen.getByRole('region', { name: 'Make More For Cheaper' });
  return Object.fromEntries(
    [...section.querySelectorAll('.pp-tool-card')].map((card) => [
      card.querySelector('.pp-tool-card__title')?.textContent,
      card.querySelector('.pp-tool-card__cost')?.textContent,
    ]),
  );
}

const faqText = () => screen.getByTestId('faq').textContent ?? '';

afterEach(() => {
  document.getElementById('root')?.remove();
  vi.unstubAllGlobals();
});

describe('the landing page on a server with the local engine and the demo', () => {
  it('prices each tool card as this server does: Creative Upscaler 1 token, the demo’s tools as free previews', async () => {
    await openLanding(LOCAL_SERVER_TOOLS);
    await waitFor(() =>
      expect(toolCards()).toEqual({
        ...Object.fromEntries(localPreviews.map((title) => [title, 'Free preview'])),
        'Background Remover': '2 tokens per use',
        'Creative Upscaler': '1 token per use',
        'Fix a Face': '2 tokens per use',
        'Image Upscaler': '1 token per use',
        'Image Analyzer': '1 token per use',
      }),
    );
    const section = screen.getByRole('region', { name: 'Make More For Cheaper' });
    expect(section.textContent).toContain(
      'A tool marked “Free preview” gives a labelled sample, not AI, that takes no tokens.',
    );
  });

  it('says in the hero and under Save Money that Text to Pic is a free preview here, with a real tool’s price', async () => {
    await openLanding(LOCAL_SERVER_TOOLS);
    await waitFor(() =>
      expect(screen.getByTestId('hero-price').textContent).toBe(
        'Text to Pic is a free preview here. Other tools from 1 token per use.',
      ),
    );
    const saveMoney = within(screen.getByRole('region', { name: 'Make More For Cheaper' }))
      .getByRole('heading', { name: 'Save Money' })
      .closest('li');
    expect(saveMoney?.textContent).toContain('One token runs the Creative Upscaler once: 1 cent a picture.');
    expect(saveMoney?.textContent).not.toContain('Text to Pic');
  });

  it('lists this server’s prices in the FAQ, names the free previews and keeps the spec’s statement', async () => {
    await openLanding(LOCAL_SERVER_TOOLS);
    await waitFor(() => expect(faqText()).not.toContain('70 tokens'));
    const text = faqText();
    expect(text).toContain('One token makes one Text to Pic image, so each picture costs 1 cent.');
    expect(text).toContain(
      'Here Text to Pic is a free preview for now: a labelled sample, not AI, that takes no tokens.',
    );
    expect(text).toContain(
      'Each tool states its own cost, on its button before you click: Creative Upscaler 1 token per use; Image Upscaler 1 token per use; Image Analyzer 1 token per use; Background Remover 2 tokens per use; Fix a Face 2 tokens per use.',
    );
    expect(text).toContain(
      `${listInWords(localPreviews)} are free previews here: a labelled sample, not AI, that takes no tokens.`,
    );
    expect(text).toContain(
      'Every new account starts with 20 free tokens: enough to try Creative Upscaler, Image Upscaler and Image Analyzer before you buy anything. The free previews take none.',
    );
  });
});

describe('the landing page on other servers', () => {
  it('keeps the spec’s prices and words where Replicate serves every tool', async () => {
    const api = await openLanding(REPLICATE_SERVER_TOOLS);
    await waitFor(() => expect(api.callsTo('GET /api/tools')).toHaveLength(1));
    expect(screen.getByTestId('hero-price').textContent).toBe('Text to Pic from 1 token per image');
    expect(toolCards()['Creative Upscaler']).toBe('70 tokens per use');
    expect(Object.values(toolCards())).not.toContain('Free preview');
    expect(faqText()).toContain('Creative Upscaler 70 tokens per use');
    expect(faqText()).not.toContain('free preview');
  });

  it('says in plain words that every tool is a free preview where the demo serves them all', async () => {
    await openLanding(DEMO_SERVER_TOOLS);
    await waitFor(() =>
      expect(screen.getByTestId('hero-price').textContent).toBe(
        'Every tool is a free preview here for now: labelled samples that take no tokens.',
      ),
    );
    expect(new Set(Object.values(toolCards()))).toEqual(new Set(['Free preview']));
    expect(faqText()).toContain(
      'Each tool states its own cost, on its button before you click. Here every tool is a free preview for now: a labelled sample, not AI, that takes no tokens.',
    );
    expect(faqText()).toContain(
      'Every new account starts with 20 free tokens. Here every tool is a free preview for now, so trying them takes none.',
    );
  });

  it('shows the prices a prerendered page carries from its first render, before /api/tools answers', async () => {
    // What the server puts on a prerendered page's root (server/pages/prerendered-pages.ts).
    const root = document.createElement('div');
    root.id = 'root';
    root.dataset.prerendered = '';
    root.dataset.tools = JSON.stringify(LOCAL_SERVER_TOOLS.body);
    document.body.append(root);
    const api = await openLanding();
    expect(toolCards()['Creative Upscaler']).toBe('1 token per use');
    expect(api.callsTo('GET /api/tools')).toEqual([]);
  });
});
