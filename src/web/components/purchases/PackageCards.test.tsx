import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../contract/accounts';
import { PURCHASE_MESSAGES } from '../../../contract/packages';
import { AuthProvider } from '../../features/auth/AuthProvider';
import { forgetPackages } from '../../lib/purchases/purchase-api';
import { createMemoryRouter, RouterProvider } from '../../lib/router';
import {
  deferred,
  type FakeReply,
  type FakeRoutes,
  installFakeApi,
  signedInRoutes,
  signedOutRoutes,
} from '../../test-support/fake-api';
import { PackageCards } from './PackageCards';

const STRIPE_PACKAGES = [
  { id: 'price_1A', name: '500 Tokens', tokens: 500, priceCents: 500, features: ['500 AI Photos'] },
  { id: 'price_1B', name: '1100 Tokens', tokens: 1100, priceCents: 1000, features: ['1,100 AI Photos'] },
  { id: 'price_1C', name: '2400 Tokens', tokens: 2400, priceCents: 2000, features: ['2,400 AI Photos'] },
];

function renderCards(routes: FakeRoutes) {
  const api = installFakeApi(routes);
  const onSignedOut = vi.fn();
  const Page = () => (
    <AuthProvider>
      <PackageCards onSignedOut={onSignedOut} />
    </AuthProvider>
  );
  render(<RouterProvider router={createMemoryRouter([{ path: '/', Component: Page }])} />);
  return { api, onSignedOut };
}

const buyButtons = () => screen.getAllByRole('button', { name: 'Buy Tokens' });
const note = () => screen.queryByTestId('purchase-note')?.textContent ?? null;

/** Waits for the first auth check: the buttons stop being truly disabled. */
async function settled() {
  await waitFor(() => expect(buyButtons()[0]?.hasAttribute('disabled')).toBe(false));
}

let alert: ReturnType<typeof vi.fn>;
let assign: ReturnType<typeof vi.fn<(url: string | URL) => void>>;
beforeEach(() => {
  forgetPackages();
  alert = vi.fn();
  vi.stubGlobal('alert', alert);
  assign = vi.fn<(url: string | URL) => void>();
  vi.spyOn(window.location, 'assign').mockImplementation(assign);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('PackageCards', () => {
  it('starts a checkout with the spec’s body and goes to its page', async () => {
    const { api } = renderCards({
      ...signedInRoutes(),
      'POST /api/create-checkout-session': { body: { id: 'cs_1', url: '/checkout/local/cs_1' } },
    });
    await settled();
    expect(note()).toBeNull();
    fireEvent.click(buyButtons()[1] as HTMLElement);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/checkout/local/cs_1'));
    expect(api.callsTo('POST /api/create-checkout-session').map((call) => call.body)).toEqual([
      { priceId: 'price_local_1100', userId: 'user-1', userEmail: 'ada@example.com' },
    ]);
    expect(alert).not.toHaveBeenCalled();
  });

  it('sells the server’s packages (their price ids) once it answers', async () => {
    const { api } = renderCards({
      ...signedInRoutes(),
      'GET /api/packages': { body: { packages: STRIPE_PACKAGES } },
      'POST /api/create-checkout-session': { body: { id: 'cs_2', url: 'https://checkout.stripe.com/c/pay/cs_2' } },
    });
    await settled();
    await waitFor(() => expect(screen.queryByText('Upscale Photos')).toBeNull());
    fireEvent.click(buyButtons()[2] as HTMLElement);
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.com/c/pay/cs_2'));
    expect(api.callsTo('POST /api/create-checkout-session')[0]?.body).toMatchObject({ priceId: 'price_1C' });
  });

  it('shows the built-in packages when the server cannot list them', async () => {
    renderCards({ ...signedInRoutes(), 'GET /api/packages': 'network-error' });
    await settled();
    const cards = screen.getAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      '500 Tokens',
      '1100 Tokens',
      '2400 Tokens',
    ]);
    expect(cards.map((card) => card.querySelector('.pp-package__price')?.textContent)).toEqual([
      '$5.00/package',
      '$10.00/package',
      '$20.00/package',
    ]);
    expect(within(cards[2] as HTMLElement).getByText('Best value')).toBeTruthy();
  });

  it('disables the buttons during the first auth check and while a checkout starts', async () => {
    const session = deferred<FakeReply>();
    const checkout = deferred<FakeReply>();
    renderCards({
      ...signedInRoutes(),
      'GET /api/auth/get-session': [() => session.promise, signedInRoutes()['GET /api/auth/get-session'] as FakeReply],
      'POST /api/create-checkout-session': () => checkout.promise,
    });
    for (const button of buyButtons()) expect(button.hasAttribute('disabled')).toBe(true);
    session.resolve(signedInRoutes()['GET /api/auth/get-session'] as FakeReply);
    await settled();
    fireEvent.click(buyButtons()[0] as HTMLElement);
    await screen.findByRole('button', { name: 'Processing...' });
    for (const button of screen.getAllByRole('button')) expect(button.hasAttribute('disabled')).toBe(true);
    checkout.resolve({ body: { id: 'cs_3', url: '/checkout/local/cs_3' } });
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/checkout/local/cs_3'));
  });

  it('hands a visitor to the page (the landing page scrolls up to its form) without calling the server', async () => {
    const { api, onSignedOut } = renderCards(signedOutRoutes());
    await settled();
    fireEvent.click(buyButtons()[0] as HTMLElement);
    expect(onSignedOut).toHaveBeenCalledTimes(1);
    expect(api.callsTo('POST /api/create-checkout-session')).toHaveLength(0);
    expect(note()).toBeNull();
  });

  const blocked: [string, Partial<Profile>, string, string][] = [
    ['unverified', { emailVerified: false }, PURCHASE_MESSAGES.verifyNote, PURCHASE_MESSAGES.verifyAlert],
    ['disputed', { isDispute: true }, PURCHASE_MESSAGES.disputeNote, PURCHASE_MESSAGES.blockedAlert],
    ['fraud-flagged', { isFraudulent: true }, PURCHASE_MESSAGES.fraudNote, PURCHASE_MESSAGES.blockedAlert],
    [
      'fraud-flagged and disputed',
      { isFraudulent: true, isDispute: true },
      PURCHASE_MESSAGES.fraudNote,
      PURCHASE_MESSAGES.blockedAlert,
    ],
  ];
  it.each(blocked)('tells an %s user why they cannot buy', async (_, profile, noteText, alertText) => {
    const { api } = renderCards(signedInRoutes(profile));
    await waitFor(() => expect(note()).toBe(noteText));
    for (const button of buyButtons()) expect(button.getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(buyButtons()[0] as HTMLElement);
    expect(alert).toHaveBeenCalledWith(alertText);
    expect(api.callsTo('POST /api/create-checkout-session')).toHaveLength(0);
  });

  it('passes on the server’s purchase alert when our copy of the profile was stale', async () => {
    renderCards({
      ...signedInRoutes(),
      'POST /api/create-checkout-session': { status: 403, body: { error: PURCHASE_MESSAGES.blockedAlert } },
    });
    await settled();
    fireEvent.click(buyButtons()[0] as HTMLElement);
    await waitFor(() => expect(alert).toHaveBeenCalledWith(PURCHASE_MESSAGES.blockedAlert));
    expect(assign).not.toHaveBeenCalled();
    expect(buyButtons()[0]?.hasAttribute('disabled')).toBe(false);
  });
});
