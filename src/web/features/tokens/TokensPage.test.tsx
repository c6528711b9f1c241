import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../app/test-utils';
import { forgetPackages, type Purchase } from '../../lib/purchases/purchase-api';
import { installFakeApi, PROFILE, signedInRoutes, signedOutRoutes } from '../../test-support/fake-api';
import { CHECKOUT_TEXT } from './CheckoutBanner';
import { CONFIRMATION_ATTEMPTS, CONFIRMATION_INTERVAL_MS } from './use-checkout-return';

const purchase = (overrides: Partial<Purchase> = {}): Purchase => ({
  id: 'cs_1',
  packageId: 'price_local_500',
  tokens: 500,
  amount: '$5.00',
  status: 'paid',
  createdAt: '2026-03-14T15:09:00.000Z',
  completedAt: '2026-03-14T15:10:00.000Z',
  expiresAt: null,
  ...overrides,
});

async function openTokens(path = '/tokens') {
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: 'Tokens' });
  return view;
}

beforeEach(() => forgetPackages());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Tokens page', () => {
  it('asks a visitor to log in and sends Buy Tokens to the sign-in form on the home page', async () => {
    installFakeApi(signedOutRoutes());
    const { router } = await openTokens();
    await screen.findByRole('heading', { level: 2, name: 'Log in to buy tokens' });
    expect(screen.getByRole('link', { name: 'Log in or create an account' }).getAttribute('href')).toBe('/#sign-in');
    expect(screen.queryByRole('region', { name: 'Purchase history' })).toBeNull();
    const buy = screen.getAllByRole('button', { name: 'Buy Tokens' })[0] as HTMLElement;
    await waitFor(() => expect(buy.hasAttribute('disabled')).toBe(false));
    fireEvent.click(buy);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Email' })));
  });

  it('says something useful at a balance of 0, not “Enough for 0 Text to Pic images”', async () => {
    installFakeApi({ ...signedInRoutes({ tokens: 0 }), 'GET /api/purchases': { body: { purchases: [] } } });
    await openTokens();
    await waitFor(() => expect(screen.getByTestId('tokens-balance').textContent).toBe('0 tokens'));
    const card = screen.getByRole('region', { name: 'Your balance' });
    expect(card.textContent).not.toContain('Enough for 0');
    expect(card.textContent).toContain('No tokens left: choose a package below to keep creating.');
  });

  it('shows the balance, the three packages and the purchase history', async () => {
    installFakeApi({
      ...signedInRoutes({ tokens: 1620 }),
      'GET /api/purchases': {
        body: {
          purchases: [
            purchase({
              id: 'cs_2',
              packageId: 'price_local_1100',
              tokens: 1100,
              amount: '$10.00',
              status: 'open',
              completedAt: null,
              expiresAt: new Date(Date.now() + 41.5 * 60_000).toISOString(),
            }),
            purchase({ id: 'cs_3', packageId: 'price_local_2400', tokens: 2400, amount: '$20.00', status: 'expired' }),
            purchase(),
          ],
        },
      },
    });
    await openTokens();
    await waitFor(() => expect(screen.getByTestId('tokens-balance').textContent).toBe('1,620 tokens'));
    expect(screen.getAllByRole('article')).toHaveLength(3);
    const history = await screen.findByTestId('purchase-history');
    const rows = within(history)
      .getAllByRole('row')
      .map((row) =>
        within(row)
          .queryAllByRole('cell')
          .map((cell) => cell.textContent),
      );
    expect(rows.slice(1)).toEqual([
      [expect.stringMatching(/^Mar 14, 2026/), '1100 Tokens', '$10.00', 'Open – expires in 42 minCancel'],
      [expect.stringMatching(/^Mar 14, 2026/), '2400 Tokens', '$20.00', 'Expired'],
      [expect.stringMatching(/^Mar 14, 2026/), '500 Tokens', '$5.00', 'Paid'],
    ]);
  });

  it('lets the user cancel an open checkout, which the server ends; an error says why', async () => {
    const open = purchase({
      id: 'cs_open',
      status: 'open',
      completedAt: null,
      expiresAt: new Date(Date.now() + 5 * 60_000).toISOString(),
    });
    const api = installFakeApi({
      ...signedInRoutes(),
      'GET /api/purchases': { body: { purchases: [open, purchase()] } },
      'POST /api/purchases/cs_open/cancel': [
        { status: 502, body: { error: 'The checkout could not be cancelled just now. Please try again in a moment.' } },
        { body: { purchase: { ...open, status: 'canceled', expiresAt: null, completedAt: open.createdAt } } },
      ],
    });
    await openTokens();
    const history = await screen.findByTestId('purchase-history');
    expect(within(history).getByText('Open – expires in 5 min')).toBeTruthy();
    // Only the open checkout can be cancelled.
    expect(within(history).getAllByRole('button', { name: /^Cancel/ })).toHaveLength(1);
    fireEvent.click(within(history).getByRole('button', { name: 'Cancel the checkout of $5.00' }));
    expect((await within(history).findByRole('alert')).textContent).toBe(
      'The checkout could not be cancelled just now. Please try again in a moment.',
    );
    fireEvent.click(within(history).getByRole('button', { name: 'Cancel the checkout of $5.00' }));
    await within(history).findByText('Canceled');
    expect(within(history).queryByRole('button', { name: /^Cancel/ })).toBeNull();
    expect(within(history).queryByRole('alert')).toBeNull();
    expect(api.callsTo('POST /api/purchases/cs_open/cancel')).toHaveLength(2);
  });

  it('says so when there are no purchases yet', async () => {
    installFakeApi({ ...signedInRoutes(), 'GET /api/purchases': { body: { purchases: [] } } });
    await openTokens();
    await screen.findByText('No purchases yet. Each package you buy will be listed here.');
  });

  it('offers to try again when the history cannot be read', async () => {
    installFakeApi({
      ...signedInRoutes(),
      'GET /api/purchases': [{ status: 500, body: { error: 'boom' } }, { body: { purchases: [purchase()] } }],
    });
    await openTokens();
    fireEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    await screen.findByTestId('purchase-history');
  });

  it('after checkout, waits for the server to credit the purchase and shows the new balance', async () => {
    const api = installFakeApi({
      ...signedInRoutes({ tokens: 20 }),
      'GET /api/purchases': [
        { body: { purchases: [purchase({ status: 'open' })] } },
        { body: { purchases: [purchase({ status: 'open' })] } },
        { body: { purchases: [purchase({ status: 'paid' })] } },
      ],
    });
    await openTokens('/tokens?checkout=success');
    await screen.findByText('Payment received. Adding your tokens…');
    // The webhook has landed: the profile now holds the credited balance.
    api.set({ 'GET /api/profile': { body: { ...PROFILE, tokens: 520 } } });
    await waitFor(
      () =>
        expect(screen.getByTestId('checkout-banner').textContent).toBe(
          'Payment complete: 500 tokens added. Your balance is now 520 tokens.',
        ),
      { timeout: 15_000 }, // the next look at the profile, on a busy machine
    );
    expect(screen.getByTestId('tokens-balance').textContent).toBe('520 tokens');
    expect(within(screen.getByTestId('purchase-history')).getByText('Paid')).toBeTruthy();
  });

  it('says the tokens are on their way when the confirmation is slow to arrive', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const api = installFakeApi({
      ...signedInRoutes(),
      'GET /api/purchases': { body: { purchases: [purchase({ status: 'open' })] } },
    });
    renderApp('/tokens?checkout=success');
    // The page's chunk loads in real time (setImmediate is not faked); the polls run on fake time.
    const banner = () => screen.queryByTestId('checkout-banner')?.textContent;
    for (let i = 0; i < 500 && banner() !== CHECKOUT_TEXT.confirming; i++) {
      await act(async () => {
        await new Promise((resolve) => setImmediate(resolve));
        await vi.advanceTimersByTimeAsync(0);
      });
    }
    expect(banner()).toBe(CHECKOUT_TEXT.confirming);
    await act(() => vi.advanceTimersByTimeAsync(CONFIRMATION_ATTEMPTS * CONFIRMATION_INTERVAL_MS));
    expect(banner()).toBe(CHECKOUT_TEXT.delayed);
    // The page's own read of the history, then one per attempt; then it stops asking.
    const reads = api.callsTo('GET /api/purchases').length;
    expect(reads).toBe(CONFIRMATION_ATTEMPTS + 1);
    await act(() => vi.advanceTimersByTimeAsync(5 * CONFIRMATION_INTERVAL_MS));
    expect(api.callsTo('GET /api/purchases')).toHaveLength(reads);
  });

  it('says that nothing was charged after a canceled checkout, until dismissed', async () => {
    installFakeApi({ ...signedInRoutes(), 'GET /api/purchases': { body: { purchases: [] } } });
    const { router } = await openTokens('/tokens?checkout=canceled');
    const banner = await screen.findByTestId('checkout-banner');
    expect(banner.textContent).toBe('Checkout canceled. Nothing was charged.');
    fireEvent.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByTestId('checkout-banner')).toBeNull());
    expect(router.state.location.search).toBe('');
  });
});
