import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../app/test-utils';
import { installFakeApi, signedInRoutes, signedOutRoutes } from '../../test-support/fake-api';
import { DATA_TEXT } from './YourDataCard';

afterEach(() => vi.unstubAllGlobals());

async function openData(extra = {}) {
  const api = installFakeApi({ ...signedInRoutes({ email: 'grace@example.com' }), ...extra });
  const view = renderApp('/user-settings');
  const card = await screen.findByRole('region', { name: 'Your data' });
  return { api, card, ...view };
}

describe('Your data, in User Settings', () => {
  it('downloads the export from the server', async () => {
    const { card } = await openData();
    const link = within(card).getByRole('link', { name: DATA_TEXT.export });
    expect(link.getAttribute('href')).toBe('/api/account/export');
    expect(link.hasAttribute('download')).toBe(true);
    expect(within(card).getByText(DATA_TEXT.exportNote)).toBeTruthy();
  });

  it('deletes the account only once the email is typed, after saying what goes and what the ledger keeps', async () => {
    const { api, card, router } = await openData({
      'DELETE /api/account': { status: 204 },
      'POST /api/auth/sign-out': { body: { success: true } },
    });
    fireEvent.click(within(card).getByRole('button', { name: DATA_TEXT.delete }));
    const warning = within(card).getByTestId('delete-warning').textContent ?? '';
    expect(warning).toContain('removes your uploaded images, your results, your share links and your personal data');
    expect(warning).toContain('The token ledger keeps its rows of charges, refunds and purchases, anonymised');
    const confirm = within(card).getByRole('button', { name: DATA_TEXT.confirm }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(card).getByLabelText(DATA_TEXT.confirmLabel), { target: { value: 'someone@else.com' } });
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(card).getByLabelText(DATA_TEXT.confirmLabel), { target: { value: 'Grace@example.com ' } });
    api.set(signedOutRoutes());
    fireEvent.click(confirm);
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(api.callsTo('DELETE /api/account')).toHaveLength(1);
  });

  it('says so when the deletion fails, and keeps the user where they are', async () => {
    const { card, router } = await openData({ 'DELETE /api/account': { status: 500, body: { error: 'boom' } } });
    fireEvent.click(within(card).getByRole('button', { name: DATA_TEXT.delete }));
    fireEvent.change(within(card).getByLabelText(DATA_TEXT.confirmLabel), { target: { value: 'grace@example.com' } });
    fireEvent.click(within(card).getByRole('button', { name: DATA_TEXT.confirm }));
    expect(await within(card).findByText(DATA_TEXT.deleteFailed)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user-settings');
  });
});
