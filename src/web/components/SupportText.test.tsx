// Where support is (issue 57): the spec's "Please contact support" sentences, word for word, link
// to SUPPORT_EMAIL; the error screen shows an error's reference for the user to quote.
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { TOOL_MESSAGES, toolById } from '../../contract/tools';
import { routes } from '../app/routes';
import { renderApp } from '../app/test-utils';
import type { RouteObject } from '../lib/router';
import { CONFIG, installFakeApi, signedInRoutes } from '../test-support/fake-api';
import { setUpToolPageTests } from '../test-support/tool-page-harness';

const SUPPORT = { ...CONFIG, supportEmail: 'help@picture-palette.example' };

setUpToolPageTests();

describe('"Please contact support"', () => {
  it('keeps the spec’s words and links "contact support" to the support address', async () => {
    installFakeApi(signedInRoutes({ isFraudulent: true }, SUPPORT));
    const tool = toolById('colorizer');
    renderApp(tool.route);
    const banner = await screen.findByTestId('account-banner');
    await waitFor(() => expect(within(banner).getByRole('link', { name: 'contact support' })).toBeTruthy());
    expect(banner.textContent).toBe(TOOL_MESSAGES.fraud);
    const link = within(banner).getByRole('link', { name: 'contact support' });
    expect(link.getAttribute('href')).toMatch(/^mailto:help@picture-palette\.example\?subject=/);
    // And the footer says where support is.
    const footer = await screen.findByRole('contentinfo');
    expect(within(footer).getByRole('link', { name: 'Contact support' }).getAttribute('href')).toMatch(
      /^mailto:help@picture-palette\.example/,
    );
  });

  it('stays plain words when the server has no support address', async () => {
    installFakeApi(signedInRoutes({ isDispute: true }));
    renderApp(toolById('colorizer').route);
    const banner = await screen.findByTestId('account-banner');
    expect(banner.textContent).toBe(TOOL_MESSAGES.dispute);
    expect(within(banner).queryByRole('link')).toBeNull();
  });
});

describe('the error screen', () => {
  function ServerFailure(): never {
    throw Object.assign(new Error('Something went wrong on our side. Please try again. Reference: req-7f3a'), {
      reference: 'req-7f3a',
    });
  }
  const [root] = routes;
  if (!root) throw new Error('no root route');
  const withFailure: RouteObject[] = [
    { ...root, children: [...(root.children ?? []), { path: '/fails', Component: ServerFailure }] },
  ];

  it('shows the reference of an error that carries one, and mails it to support', async () => {
    installFakeApi({ 'GET /api/config': { body: SUPPORT } });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    renderApp('/fails', withFailure);
    const reference = await screen.findByTestId('error-reference');
    expect(reference.textContent).toContain('Reference: req-7f3a');
    await waitFor(() =>
      expect(within(reference).getByRole('link', { name: 'contact support' }).getAttribute('href')).toContain(
        'Reference%3A%20req-7f3a',
      ),
    );
    logged.mockRestore();
  });
});
