// What a balance buys, told on /tokens with a tool that is real on this server (GET /api/tools), never
// with a free preview.
import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../app/test-utils';
import { forgetPackages } from '../../lib/purchases/purchase-api';
import { installFakeApi, signedInRoutes } from '../../test-support/fake-api';
import { DEMO_SERVER_TOOLS, localServerTools, REPLICATE_SERVER_TOOLS } from '../../test-support/tool-fixtures';

/** Opens /tokens for a user with `tokens` on a server whose /api/tools answers `tools`, and waits for the balance card's line. */
async function expectBalanceHint(tokens: number, tools: { body: unknown }, expected: string): Promise<void> {
  installFakeApi({
    ...signedInRoutes({ tokens }),
    'GET /api/purchases': { body: { purchases: [] } },
    'GET /api/tools': tools,
  });
  renderApp('/tokens');
  await screen.findByRole('heading', { level: 1, name: 'Tokens' });
  await waitFor(() => expect(screen.getByTestId('tokens-balance-hint').textContent).toBe(expected));
}

beforeEach(() => forgetPackages());
afterEach(() => vi.unstubAllGlobals());

describe('the balance’s example on /tokens', () => {
  it('counts in a real tool where Text to Pic is a free preview here, not in Text to Pic images', async () => {
    // The local engine's Creative Upscaler at 1 token is the cheapest real tool; Text to Pic is the demo's.
    const local = localServerTools({ 'background-remover': 2, 'creative-upscaler': 1 });
    await expectBalanceHint(479, local, 'Enough for 479 Creative Upscaler uses. Tokens never expire.');
  });

  it('counts in Text to Pic images where Text to Pic is real here', async () => {
    await expectBalanceHint(479, REPLICATE_SERVER_TOOLS, 'Enough for 479 Text to Pic images. Tokens never expire.');
  });

  it('says in plain words that every tool is a free preview where the demo serves them all', async () => {
    await expectBalanceHint(
      20,
      DEMO_SERVER_TOOLS,
      'Every tool is a free preview here for now: it takes no tokens. Tokens never expire.',
    );
  });

  it('says a balance is short of the cheapest real tool rather than “Enough for 0”', async () => {
    const onlyFixAFace = {
      body: {
        tools: DEMO_SERVER_TOOLS.body.tools.map((tool) =>
          tool.id === 'fix-a-face' ? { ...tool, provider: 'local', demo: false, freePreview: false, price: 2 } : tool,
        ),
      },
    };
    await expectBalanceHint(
      1,
      onlyFixAFace,
      'Not enough for 1 Fix a Face use yet (2 tokens): choose a package below. Tokens never expire.',
    );
  });
});
