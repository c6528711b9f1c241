import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TOOLS } from '../../../contract/tools';
import { renderApp } from '../../app/test-utils';
import { installFakeApi, signedInRoutes, signedOutRoutes } from '../../test-support/fake-api';
import { toolsInfoAnswer } from '../../test-support/tool-fixtures';
import { setUpToolPageTests } from '../../test-support/tool-page-harness';

setUpToolPageTests();

/** Opens a tool page and waits until the first auth check has answered. */
async function openTool(route: string, title: string) {
  renderApp(route);
  await screen.findByRole('heading', { level: 1, name: title });
  await waitFor(() => expect(screen.getByTestId('token-balance').getAttribute('aria-busy')).toBeNull());
}

describe('tool page frame', () => {
  it.each(TOOLS.map((tool) => [tool.route, tool]))('%s shows its title, summary and price', async (route, tool) => {
    installFakeApi(signedOutRoutes());
    await openTool(route, tool.title);
    expect(screen.getByText(tool.summary)).toBeTruthy();
    await waitFor(() => expect(document.title).toBe(`${tool.title} · Picture Palette`));
    expect(screen.getByTestId('cost-chip').textContent).toMatch(/^\d+ tokens? per (image|use)$/);
    expect(screen.queryByText(/being set up/)).toBeNull();
  });

  it('prices per image and per use', async () => {
    installFakeApi(signedOutRoutes());
    await openTool('/creative-upscale', 'Creative Upscaler');
    expect(screen.getByTestId('cost-chip').textContent).toBe('70 tokens per use');
  });

  it.each(TOOLS.map((tool) => [tool.route, tool]))('%s labels every control', async (route, tool) => {
    installFakeApi(signedInRoutes());
    await openTool(route, tool.title);
    const controls = [
      ...screen.queryAllByRole('textbox'),
      ...screen.queryAllByRole('combobox'),
      ...screen.queryAllByRole('radio'),
      ...screen.queryAllByRole('button'),
    ];
    for (const control of controls) {
      const labelled =
        control.getAttribute('aria-label') ||
        control.getAttribute('aria-labelledby') ||
        (control.id && document.querySelector(`label[for="${control.id}"]`)) ||
        control.closest('label') ||
        control.textContent?.trim();
      expect(labelled, control.outerHTML).toBeTruthy();
    }
  });

  it('asks a visitor to log in, naming the tool', async () => {
    installFakeApi(signedOutRoutes());
    await openTool('/image-upscaler', 'Image Upscaler');
    const banner = await screen.findByTestId('account-banner');
    expect(banner.textContent).toBe('Please log in to use the Image Upscaler. Sign in or create an account');
    fireEvent.click(screen.getByRole('link', { name: 'Sign in or create an account' }));
    // The landing page's form, scrolled to, its email field focused.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Email' })));
  });

  it('points an unverified user to User Settings', async () => {
    installFakeApi(signedInRoutes({ emailVerified: false }));
    await openTool('/colorizer', 'Colorizer');
    await waitFor(() =>
      expect(screen.getByTestId('account-banner').textContent).toBe(
        'Please verify email before use. Verify your email in User Settings',
      ),
    );
  });

  it('says nothing about the account when it may use the tool, and no demo notice for a real provider', async () => {
    installFakeApi({
      ...signedInRoutes(),
      'GET /api/tools': toolsInfoAnswer('colorizer', 'replicate', 6),
    });
    await openTool('/colorizer', 'Colorizer');
    await waitFor(() => expect(screen.getByTestId('token-balance').textContent).toContain('20 tokens'));
    expect(screen.queryByTestId('account-banner')).toBeNull();
    expect(screen.queryByTestId('demo-notice')).toBeNull();
    expect(screen.queryByTestId('engine-notice')).toBeNull();
  });

  it('says when the local engine serves the tool, and that Fix a Face there is not GFPGAN', async () => {
    installFakeApi({
      ...signedInRoutes(),
      'GET /api/tools': toolsInfoAnswer('fix-a-face', 'local', 2),
    });
    await openTool('/face-fixer', 'Fix a Face');
    const notice = await screen.findByTestId('engine-notice');
    expect(notice.textContent).toContain('Local engine, not GFPGAN');
    // Operator settings are for the start log and /api/health, not the user's page.
    expect(notice.textContent).not.toContain('REPLICATE_API_TOKEN');
    expect(screen.queryByTestId('demo-notice')).toBeNull();
  });

  it('says beside the button of a tool the demo serves that it is a free preview, not AI, and prices nothing', async () => {
    installFakeApi({ ...signedInRoutes(), 'GET /api/tools': toolsInfoAnswer('colorizer', 'demo', 6) });
    await openTool('/colorizer', 'Colorizer');
    const notice = await screen.findByTestId('demo-notice');
    expect(notice.textContent).toBe('Free preview: a labelled sample, not AI. It takes no tokens.');
    expect(notice.closest('form')?.contains(screen.getByTestId('tool-action'))).toBe(true);
    expect(screen.getByTestId('tool-action').textContent).toBe('ColorizeFree preview');
    expect(screen.getByTestId('cost-chip').textContent).toBe('Free preview');
    expect(screen.queryByTestId('engine-notice')).toBeNull();
    expect(document.body.textContent).not.toContain('REPLICATE_API_TOKEN');
  });

  it('says what a tool takes on this server: the Creative Upscaler at the Image Upscaler’s price, and why', async () => {
    installFakeApi({ ...signedInRoutes(), 'GET /api/tools': toolsInfoAnswer('creative-upscaler', 'local', 1) });
    await openTool('/creative-upscale', 'Creative Upscaler');
    await waitFor(() => expect(screen.getByTestId('cost-chip').textContent).toBe('1 token per use'));
    expect(screen.getByTestId('tool-action').textContent).toBe('Creative Upscale1 token');
    const note = screen.getByTestId('price-notice');
    expect(note.textContent).toBe(
      'Priced like the Image Upscaler here: its results on this server are close to the Image Upscaler’s, so it costs the same.',
    );
    expect(note.closest('form')?.contains(screen.getByTestId('tool-action'))).toBe(true);
    expect(screen.queryByTestId('demo-notice')).toBeNull();
  });
});
