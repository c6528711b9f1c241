// Issue 54 item 6: the verification link lands with ?emailVerified=1 (the server adds it only when
// the link has just verified this browser's account), and the page confirms it once.
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../app/test-utils';
import { installFakeApi, signedInRoutes } from '../../test-support/fake-api';

afterEach(() => vi.unstubAllGlobals());

async function openTextToPic(search: string, emailVerified = true) {
  installFakeApi(signedInRoutes({ emailVerified }));
  const view = renderApp(`/text-to-pic${search}`);
  await screen.findByRole('heading', { level: 1, name: 'Text to Pic' });
  // Signed in once the balance shows: the notice has what it needs from then on.
  await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toContain('20 tokens'));
  return view;
}

describe('the page a verification link lands on', () => {
  it('says "Email verified", drops the flag from the address, and stays until the user moves on', async () => {
    const { router } = await openTextToPic('?emailVerified=1');
    expect((await screen.findByTestId('email-verified')).textContent).toBe(
      'Email verified. Thank you: every tool is open to you now.',
    );
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.getByTestId('email-verified')).toBeTruthy();

    await act(() => router.navigate('/colorizer'));
    await screen.findByRole('heading', { level: 1, name: 'Colorizer' });
    expect(screen.queryByTestId('email-verified')).toBeNull();
    await act(() => router.navigate('/text-to-pic'));
    await screen.findByRole('heading', { level: 1, name: 'Text to Pic' });
    expect(screen.queryByTestId('email-verified')).toBeNull();
  });

  it('says nothing without the flag', async () => {
    await openTextToPic('');
    expect(screen.queryByTestId('email-verified')).toBeNull();
  });

  it('says nothing to an account the session does not call verified, whatever the address says', async () => {
    const { router } = await openTextToPic('?emailVerified=1', false);
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByTestId('email-verified')).toBeNull();
  });
});
