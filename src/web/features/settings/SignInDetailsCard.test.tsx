import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SETTINGS_MESSAGES } from '../../../contract/account-settings';
import { renderApp } from '../../app/test-utils';
import { ACCOUNT_DETAILS, type FakeRoutes, installFakeApi, signedInRoutes } from '../../test-support/fake-api';
import { DETAILS_TEXT } from './SignInDetailsCard';
import { GOOGLE_REAUTH_TEXT } from './use-google-reauth';

afterEach(() => vi.unstubAllGlobals());

async function openDetails(extra: FakeRoutes = {}) {
  const api = installFakeApi({ ...signedInRoutes(), ...extra });
  const view = renderApp('/user-settings');
  const card = await screen.findByRole('region', { name: DETAILS_TEXT.title });
  return { api, card, ...view };
}

const OPENERS: Record<string, string> = {
  'Change your email': DETAILS_TEXT.openEmail,
  'Change your password': DETAILS_TEXT.openPassword,
  'Set a password': DETAILS_TEXT.openSetPassword,
};

/** The form named `name`, opened first when it sits behind its button. */
function form(card: HTMLElement, name: string) {
  const opener = OPENERS[name];
  if (opener && !within(card).queryByRole('form', { name })) {
    const button = within(card).getByRole('button', { name: opener });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
  }
  return within(card).getByRole('form', { name });
}

describe('User Settings: name, email and password', () => {
  it('saves the name trimmed and says so', async () => {
    const { api, card } = await openDetails({ 'POST /api/auth/update-user': { body: { status: true } } });
    const name = form(card, 'Change your name');
    const input = within(name).getByLabelText(DETAILS_TEXT.nameLabel) as HTMLInputElement;
    expect(input.value).toBe('Ada');
    const save = within(name).getByRole('button', { name: DETAILS_TEXT.saveName }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    fireEvent.change(input, { target: { value: '  Ada Lovelace ' } });
    fireEvent.click(save);
    expect(await within(name).findByText(DETAILS_TEXT.nameSaved)).toBeTruthy();
    expect(api.callsTo('POST /api/auth/update-user')[0]?.body).toEqual({ name: 'Ada Lovelace' });
  });

  it('shows the server’s sentence when it refuses the name, and asks for one before sending an empty one', async () => {
    const { api, card } = await openDetails({
      'POST /api/auth/update-user': {
        status: 400,
        body: { code: 'NAME_CONTROL_CHARACTER', message: SETTINGS_MESSAGES.nameControl },
      },
    });
    const name = form(card, 'Change your name');
    const input = within(name).getByLabelText(DETAILS_TEXT.nameLabel);
    fireEvent.change(input, { target: { value: '   ' } });
    fireEvent.click(within(name).getByRole('button', { name: DETAILS_TEXT.saveName }));
    expect(await within(name).findByText(SETTINGS_MESSAGES.nameEmpty)).toBeTruthy();
    expect(api.callsTo('POST /api/auth/update-user')).toHaveLength(0);
    fireEvent.change(input, { target: { value: 'Ada\u0001' } });
    fireEvent.click(within(name).getByRole('button', { name: DETAILS_TEXT.saveName }));
    expect(await within(name).findByText(SETTINGS_MESSAGES.nameControl)).toBeTruthy();
  });

  it('changes the password with the current one, and says a wrong current password in a sentence', async () => {
    const { api, card } = await openDetails({
      'POST /api/auth/change-password': [
        { status: 400, body: { code: 'INVALID_PASSWORD', message: 'Invalid password' } },
        { body: { token: 't', user: {} } },
      ],
    });
    const password = form(card, 'Change your password');
    fireEvent.change(within(password).getByLabelText(DETAILS_TEXT.currentPassword), { target: { value: 'not it' } });
    fireEvent.change(within(password).getByLabelText(DETAILS_TEXT.newPassword), {
      target: { value: 'new password 1' },
    });
    fireEvent.click(within(password).getByRole('button', { name: DETAILS_TEXT.changePassword }));
    expect(await within(password).findByText(SETTINGS_MESSAGES.currentPasswordWrong)).toBeTruthy();
    expect(within(password).queryByText('Invalid password')).toBeNull();

    fireEvent.click(within(password).getByRole('button', { name: DETAILS_TEXT.changePassword }));
    expect(await within(password).findByText(DETAILS_TEXT.passwordChanged)).toBeTruthy();
    expect(api.callsTo('POST /api/auth/change-password')[1]?.body).toEqual({
      currentPassword: 'not it',
      newPassword: 'new password 1',
      revokeOtherSessions: true,
    });
  });

  it('refuses a short new password in the page, before anything is sent', async () => {
    const { api, card } = await openDetails();
    const password = form(card, 'Change your password');
    expect(within(password).getByText(DETAILS_TEXT.passwordHint)).toBeTruthy();
    fireEvent.change(within(password).getByLabelText(DETAILS_TEXT.currentPassword), {
      target: { value: 'old one 123' },
    });
    fireEvent.change(within(password).getByLabelText(DETAILS_TEXT.newPassword), { target: { value: 'short' } });
    fireEvent.click(within(password).getByRole('button', { name: DETAILS_TEXT.changePassword }));
    expect(await within(password).findByText(SETTINGS_MESSAGES.passwordTooShort)).toBeTruthy();
    expect(api.callsTo('POST /api/auth/change-password')).toHaveLength(0);
  });

  it('sends the email change link with the password and says where it went', async () => {
    const target = 'ada.new@example.com';
    const { api, card } = await openDetails({
      'POST /api/account/email': { body: { sentTo: target, message: SETTINGS_MESSAGES.emailChangeSent(target) } },
    });
    const email = form(card, 'Change your email');
    fireEvent.change(within(email).getByLabelText(DETAILS_TEXT.emailLabel), { target: { value: target } });
    fireEvent.change(within(email).getByLabelText(DETAILS_TEXT.yourPassword), { target: { value: 'my password 1' } });
    fireEvent.click(within(email).getByRole('button', { name: DETAILS_TEXT.sendLink }));
    expect(await within(email).findByText(SETTINGS_MESSAGES.emailChangeSent(target))).toBeTruthy();
    expect(api.callsTo('POST /api/account/email')[0]?.body).toEqual({ newEmail: target, password: 'my password 1' });
  });

  it('shows the server’s reason when the address belongs to another account', async () => {
    const { card } = await openDetails({
      'POST /api/account/email': { status: 400, body: { error: SETTINGS_MESSAGES.emailTaken } },
    });
    const email = form(card, 'Change your email');
    fireEvent.change(within(email).getByLabelText(DETAILS_TEXT.emailLabel), { target: { value: 'taken@example.com' } });
    fireEvent.change(within(email).getByLabelText(DETAILS_TEXT.yourPassword), { target: { value: 'my password 1' } });
    fireEvent.click(within(email).getByRole('button', { name: DETAILS_TEXT.sendLink }));
    expect(await within(email).findByText(SETTINGS_MESSAGES.emailTaken)).toBeTruthy();
  });

  it('lets a Google-only account set a password, offering Google again when the server asks for it', async () => {
    const { api, card } = await openDetails({
      'GET /api/account': { body: { ...ACCOUNT_DETAILS, hasPassword: false, hasGoogle: true } },
      'POST /api/account/password': [
        { status: 403, body: { error: SETTINGS_MESSAGES.confirmWithGoogle('set a password'), reauth: 'google' } },
        { body: { status: true } },
      ],
    });
    expect(within(card).getByText(DETAILS_TEXT.setPasswordNote)).toBeTruthy();
    const password = form(card, 'Set a password');
    expect(within(password).queryByLabelText(DETAILS_TEXT.currentPassword)).toBeNull();
    form(card, 'Change your email');
    expect(within(card).queryByLabelText(DETAILS_TEXT.yourPassword)).toBeNull();
    fireEvent.change(within(password).getByLabelText(DETAILS_TEXT.newPassword), {
      target: { value: 'first password 1' },
    });
    fireEvent.click(within(password).getByRole('button', { name: DETAILS_TEXT.setPassword }));
    expect(await within(password).findByText(SETTINGS_MESSAGES.confirmWithGoogle('set a password'))).toBeTruthy();
    expect(within(password).getByRole('button', { name: GOOGLE_REAUTH_TEXT.button })).toBeTruthy();

    fireEvent.click(within(password).getByRole('button', { name: DETAILS_TEXT.setPassword }));
    expect(await within(password).findByText(DETAILS_TEXT.passwordSet)).toBeTruthy();
    expect(api.callsTo('POST /api/account/password')[1]?.body).toEqual({ newPassword: 'first password 1' });
  });

  it('says when an email change link has worked', async () => {
    installFakeApi(signedInRoutes());
    renderApp('/user-settings?emailChanged=1');
    await waitFor(() =>
      expect(screen.getByTestId('email-change-outcome').textContent).toBe(
        'Your email address is changed. You sign in with it from now on.',
      ),
    );
  });

  it('says when the new address became another account’s before the link was opened', async () => {
    installFakeApi(signedInRoutes());
    renderApp('/user-settings?emailChanged=1&error=EMAIL_TAKEN');
    await waitFor(() =>
      expect(screen.getByTestId('email-change-outcome').textContent).toBe(SETTINGS_MESSAGES.emailTakenMeanwhile),
    );
  });

  it('says when an email change link could not be used (better-auth adds ?error=)', async () => {
    installFakeApi(signedInRoutes());
    renderApp('/user-settings?emailChanged=1&error=TOKEN_EXPIRED');
    await waitFor(() =>
      expect(screen.getByTestId('email-change-outcome').textContent).toBe(
        'That email change link can’t be used: it has expired or was used already. Ask for a new one below.',
      ),
    );
  });
});
