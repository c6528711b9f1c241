import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_MESSAGES } from '../../../contract/account-settings';
import { renderApp } from '../../app/test-utils';
import { ACCOUNT_DETAILS, installFakeApi, signedInRoutes, signedOutRoutes } from '../../test-support/fake-api';
import { DELETED_TEXT } from './AccountDeletedPage';
import { GOOGLE_REAUTH_TEXT } from './use-google-reauth';
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

  it('deletes the account only once the email and the password are typed, after saying what goes and what the ledger keeps; then says it is done', async () => {
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
    expect(confirm.disabled).toBe(true);
    fireEvent.change(within(card).getByLabelText(DATA_TEXT.passwordLabel), { target: { value: 'my password 1' } });
    expect(confirm.disabled).toBe(false);
    api.set(signedOutRoutes());
    fireEvent.click(confirm);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account-deleted'));
    expect(await screen.findByRole('heading', { level: 1, name: DELETED_TEXT.title })).toBeTruthy();
    expect(screen.getByRole('link', { name: DELETED_TEXT.home }).getAttribute('href')).toBe('/');
    expect(api.callsTo('DELETE /api/account')).toHaveLength(1);
    expect(api.callsTo('DELETE /api/account')[0]?.body).toEqual({ password: 'my password 1' });
  });

  it('shows the server’s reason (a wrong password) instead of "try again", and keeps the form', async () => {
    const { card, router } = await openData({
      'DELETE /api/account': { status: 400, body: { error: SETTINGS_MESSAGES.wrongPassword } },
    });
    fireEvent.click(within(card).getByRole('button', { name: DATA_TEXT.delete }));
    fireEvent.change(within(card).getByLabelText(DATA_TEXT.confirmLabel), { target: { value: 'grace@example.com' } });
    fireEvent.change(within(card).getByLabelText(DATA_TEXT.passwordLabel), { target: { value: 'wrong one 1' } });
    fireEvent.click(within(card).getByRole('button', { name: DATA_TEXT.confirm }));
    expect(await within(card).findByText(SETTINGS_MESSAGES.wrongPassword)).toBeTruthy();
    expect(within(card).queryByText(/Please try again/)).toBeNull();
    expect(router.state.location.pathname).toBe('/user-settings');
  });

  it('asks a Google-only account to sign in with Google again when the server says so', async () => {
    const { card } = await openData({
      'GET /api/account': {
        body: { ...ACCOUNT_DETAILS, email: 'grace@example.com', hasPassword: false, hasGoogle: true },
      },
      'DELETE /api/account': {
        status: 403,
        body: { error: SETTINGS_MESSAGES.confirmWithGoogle('delete your account'), reauth: 'google' },
      },
    });
    fireEvent.click(within(card).getByRole('button', { name: DATA_TEXT.delete }));
    await waitFor(() => expect(within(card).queryByLabelText(DATA_TEXT.passwordLabel)).toBeNull());
    expect(within(card).getByText(DATA_TEXT.googleNote)).toBeTruthy();
    fireEvent.change(within(card).getByLabelText(DATA_TEXT.confirmLabel), { target: { value: 'grace@example.com' } });
    fireEvent.click(within(card).getByRole('button', { name: DATA_TEXT.confirm }));
    expect(await within(card).findByText(SETTINGS_MESSAGES.confirmWithGoogle('delete your account'))).toBeTruthy();
    expect(within(card).getByRole('button', { name: GOOGLE_REAUTH_TEXT.button })).toBeTruthy();
  });

  it('says so when the deletion fails, and keeps the user where they are', async () => {
    const { card, router } = await openData({ 'DELETE /api/account': { status: 500, body: { error: 'boom' } } });
    fireEvent.click(within(card).getByRole('button', { name: DATA_TEXT.delete }));
    fireEvent.change(within(card).getByLabelText(DATA_TEXT.confirmLabel), { target: { value: 'grace@example.com' } });
    fireEvent.change(within(card).getByLabelText(DATA_TEXT.passwordLabel), { target: { value: 'my password 1' } });
    fireEvent.click(within(card).getByRole('button', { name: DATA_TEXT.confirm }));
    expect(await within(card).findByText(DATA_TEXT.deleteFailed)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user-settings');
  });
});
