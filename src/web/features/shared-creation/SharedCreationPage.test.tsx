import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { SharedCreation } from '../../../contract/creations';
import { downloadName } from '../../../contract/download-names';
import { renderApp } from '../../app/test-utils';
import { installFakeApi, signedOutRoutes } from '../../test-support/fake-api';

afterEach(() => vi.unstubAllGlobals());

const TOKEN = 'Zr4kP9mWq2xYt7vB3nLs8cDf';

const shared: SharedCreation = {
  tool: 'colorizer',
  createdAt: '2026-11-23T12:00:00.000Z',
  outputs: [{ url: `/api/shared/${TOKEN}/files/0`, width: 800, height: 600, format: 'webp' }],
  keywords: null,
  colors: null,
};

describe('a shared creation', () => {
  it('shows a signed-out visitor the creation only, and asks the server about nothing else of its owner', async () => {
    const api = installFakeApi({ ...signedOutRoutes(), [`GET /api/shared/${TOKEN}`]: { body: shared } });
    renderApp(`/shared/${TOKEN}`);
    const heading = await screen.findByRole('heading', { level: 1, name: 'Made with Colorizer' });
    const article = heading.closest('article') as HTMLElement;
    expect(within(article).getByRole('img', { name: 'Colorizer result 1' }).getAttribute('src')).toBe(
      `/api/shared/${TOKEN}/files/0`,
    );
    expect(screen.getByText('November 23, 2026')).toBeTruthy();
    // Download: the picture under the spec's name for its tool, from the share's own URL.
    const download = within(article).getByRole('link', { name: 'Download colorized-image.webp' });
    expect(download.getAttribute('href')).toBe(`/api/shared/${TOKEN}/files/0`);
    expect(download.getAttribute('download')).toBe('colorized-image.webp');
    expect(download.textContent).toBe('Download');
    expect(screen.queryByRole('navigation')).toBeNull(); // no app menu, no way into the app's pages
    const asked = api.calls
      .map((call) => call.path)
      .filter((path) => !path.startsWith('/api/auth') && path !== '/api/config');
    expect(asked).toEqual([`/api/shared/${TOKEN}`]);
  });

  it('numbers the downloads of a result of several images, and offers none for an analysis', async () => {
    const four: SharedCreation = {
      ...shared,
      tool: 'text-to-pic',
      // The second asked for as AVIF through the API: its download says so.
      outputs: [0, 1].map((index) => ({
        url: `/api/shared/${TOKEN}/files/${index}`,
        width: 64,
        height: 64,
        format: index === 0 ? ('webp' as const) : ('avif' as const),
      })),
    };
    installFakeApi({ ...signedOutRoutes(), [`GET /api/shared/${TOKEN}`]: { body: four } });
    renderApp(`/shared/${TOKEN}`);
    await screen.findByRole('heading', { level: 1, name: 'Made with Text to Pic' });
    expect(screen.getByRole('link', { name: 'Download generated-image-1.webp' }).textContent).toBe('Download image 1');
    expect(screen.getByRole('link', { name: 'Download generated-image-2.avif' }).textContent).toBe('Download image 2');
    expect(downloadName('image-analyzer', 1)).toBeNull();
  });

  it('says so when the link was turned off or the creation deleted', async () => {
    installFakeApi({
      ...signedOutRoutes(),
      [`GET /api/shared/${TOKEN}`]: { status: 404, body: { error: 'Not found' } },
    });
    renderApp(`/shared/${TOKEN}`);
    expect(await screen.findByRole('heading', { level: 1, name: 'This link no longer works' })).toBeTruthy();
  });
});
