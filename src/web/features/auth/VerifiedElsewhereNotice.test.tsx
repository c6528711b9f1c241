import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp } from '../../app/test-utils';
import { installFakeApi, signedInRoutes } from '../../test-support/fake-api';

afterEach(() => vi.unstubAllGlobals());

async function openTextToPic(search: string) {
  installFakeApi(signedInRoutes());
  renderApp(`/text-to-pic${search}`);
  await screen.findByRole('heading', { level: 1, name: 'Text to Pic' });
  // Signed in once the balance shows: the notice has what it needs from then on.
  await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toContain('20 tokens'));
}

describe('a verification link opened while signed in as someone else', () => {
  it('says whose address was verified and who is still signed in', async () => {
    await openTextToPic('?verifiedEmail=mallory%40example.com');
    expect((await screen.findByTestId('verified-elsewhere')).textContent).toBe(
      'Email verified for mallory@example.com. You are still signed in as ada@example.com.',
    );
  });

  it('says nothing without the parameter, or when it is not an address', async () => {
    await openTextToPic('?verifiedEmail=%3Cb%3Ehello');
    expect(screen.queryByTestId('verified-elsewhere')).toBeNull();
  });
});
