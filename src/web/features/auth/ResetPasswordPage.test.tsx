import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../app/test-utils';
import { type FakeReply, installFakeApi, signedOutRoutes } from '../../test-support/fake-api';

const INVALID = 'This reset link is invalid or has expired. Request a new one from the sign-in form.';

afterEach(() => vi.unstubAllGlobals());

async function openReset(query: string, reply: FakeReply = { body: { status: true } }) {
  const api = installFakeApi({ ...signedOutRoutes(), 'POST /api/auth/reset-password': reply });
  const view = renderApp(`/reset-password${query}`);
  await screen.findByRole('heading', { level: 1 });
  return { api, ...view };
}

function submit(password: string, confirm = password) {
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: password } });
  fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: confirm } });
  fireEvent.submit(screen.getByRole('button', { name: 'Update password' }).closest('form') as HTMLFormElement);
}

describe('reset password page', () => {
  it('sets the new password with the link’s token and offers the way back to sign in', async () => {
    const { api, router } = await openReset('?token=tok-123');
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Choose a new password');
    submit('a much better password');
    await screen.findByText('Your password has been updated.');
    expect(api.callsTo('POST /api/auth/reset-password').map((call) => call.body)).toEqual([
      { newPassword: 'a much better password', token: 'tok-123' },
    ]);
    expect(screen.queryByLabelText('New password')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Back to sign in' }));
    await screen.findByLabelText('Email');
    expect(router.state.location.pathname).toBe('/');
  });

  it('refuses passwords that do not match, without asking the server', async () => {
    const { api } = await openReset('?token=tok-123');
    submit('a much better password', 'a much better passw0rd');
    const message = await screen.findByText('The passwords do not match.');
    expect(message.parentElement?.getAttribute('data-tone')).toBe('error');
    expect(api.callsTo('POST /api/auth/reset-password')).toHaveLength(0);
    expect(screen.getByLabelText('Confirm new password').getAttribute('aria-invalid')).toBe('true');
  });

  it('explains an invalid or expired token answered by the server', async () => {
    await openReset('?token=expired', { status: 400, body: { code: 'INVALID_TOKEN', message: 'Invalid token' } });
    submit('a much better password');
    await screen.findByText(INVALID);
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('button', { name: 'Back to sign in' })).toBeTruthy();
  });

  it('shows a too-short password inline and keeps the form', async () => {
    await openReset('?token=tok-123', {
      status: 400,
      body: { code: 'PASSWORD_TOO_SHORT', message: 'Password too short' },
    });
    submit('short');
    await screen.findByText('That password is too short. Use at least 8 characters.');
    expect(screen.getByLabelText('New password')).toBeTruthy();
  });

  it.each([
    ['better-auth’s expired-link redirect', '?error=INVALID_TOKEN'],
    ['a link without a token', ''],
  ])('shows the invalid-link message for %s', async (_, query) => {
    const { api } = await openReset(query);
    expect(screen.getByText(INVALID)).toBeTruthy();
    expect(screen.queryByLabelText('New password')).toBeNull();
    await waitFor(() => expect(api.callsTo('GET /api/auth/get-session')).toHaveLength(1));
    expect(api.callsTo('POST /api/auth/reset-password')).toHaveLength(0);
  });
});
