import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { CreationUsage } from '../../../../contract/creations';
import { renderApp } from '../../../app/test-utils';
import { creation, creationList, storedImage } from '../../../test-support/creation-fixtures';
import { type FakeRequest, installFakeApi, signedOutRoutes } from '../../../test-support/fake-api';
import { open, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';

setUpToolPageTests();

const USAGE: CreationUsage = {
  usedBytes: 12.5 * 1024 ** 2,
  quotaBytes: 1024 ** 3,
  uploadRetentionDays: 7,
  resultRetentionDays: 90,
};

const colorized = creation({
  id: 'job-8',
  tool: 'colorizer',
  outputs: [storedImage(4)],
  inputs: [storedImage(3)],
  createdAt: '2026-11-23T19:00:00.000Z',
});

const routes = (extra = {}) =>
  signedIn(
    {},
    {
      'GET /api/creations/usage': { body: USAGE },
      'GET /api/creations': creationList(colorized, creation()),
      ...extra,
    },
  );

const cards = () => screen.getAllByTestId('creation');

describe('My Creations', () => {
  it('lists the results newest first, with the storage used and how long things are kept', async () => {
    await open('/creations', routes(), 'My Creations');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(cards().map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Colorizer',
      'Background Remover',
    ]);
    expect(screen.getByTestId('creations-usage').textContent).toBe(
      '12.5 MB of 1 GB used. Uploaded images are deleted 7 days after the job; results are kept 90 days, unless you delete them first.',
    );
    // The spec's file names per tool.
    expect(
      within(cards()[0] as HTMLElement).getByRole('button', { name: 'Download colorized-image.webp' }),
    ).toBeTruthy();
    expect(
      within(cards()[1] as HTMLElement).getByRole('button', { name: 'Download background-removed.png' }),
    ).toBeTruthy();
    // Run again: the tool with the same input image.
    expect(
      within(cards()[1] as HTMLElement)
        .getByRole('link', { name: 'Run again' })
        .getAttribute('href'),
    ).toBe(`/background-remover?image=${storedImage(1).id}`);
  });

  it('shows a free preview as one, with nothing to send on', async () => {
    const preview = creation({ id: 'job-9', tool: 'background-swap', cost: 50, charged: 0, demo: true });
    await open('/creations', routes({ 'GET /api/creations': creationList(preview) }), 'My Creations');
    await waitFor(() => expect(cards()).toHaveLength(1));
    const card = cards()[0] as HTMLElement;
    expect(within(card).getByText('Free preview')).toBeTruthy();
    expect(card.textContent).not.toContain('50 tokens');
    expect(within(card).queryByRole('link', { name: /^Send to/ })).toBeNull();
    fireEvent.click(within(card).getByRole('button', { name: 'Open' }));
    expect(within(await screen.findByRole('dialog')).queryByRole('link', { name: /^Send to/ })).toBeNull();
  });

  it('filters by tool and loads more with the server’s cursor', async () => {
    const asked: string[] = [];
    const answer = (request: FakeRequest) => {
      asked.push(request.search);
      const search = new URLSearchParams(request.search);
      if (search.get('cursor') === 'page-2') return creationList(creation({ id: 'job-1' }));
      return { body: { creations: [creation()], next: 'page-2' } };
    };
    await open('/creations', routes({ 'GET /api/creations': answer }), 'My Creations');
    await waitFor(() => expect(cards()).toHaveLength(1));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    fireEvent.change(screen.getByRole('combobox', { name: 'Tool' }), { target: { value: 'background-remover' } });
    await waitFor(() => expect(asked).toHaveLength(3));
    expect(asked).toEqual(['?limit=24', '?cursor=page-2&limit=24', '?tool=background-remover&limit=24']);
  });

  it('deletes a creation only after a confirmation that says what goes', async () => {
    const { api } = await open(
      '/creations',
      routes({ 'DELETE /api/creations/job-7': { status: 204 } }),
      'My Creations',
    );
    await waitFor(() => expect(cards()).toHaveLength(2));
    const card = cards()[1] as HTMLElement;
    fireEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    expect(within(card).getByRole('region', { name: 'Confirm deletion' }).textContent).toContain(
      'Its images are removed for good; your token history keeps the charge.',
    );
    fireEvent.click(within(card).getByRole('button', { name: 'Keep it' }));
    expect(api.callsTo('DELETE /api/creations/job-7')).toHaveLength(0);
    fireEvent.click(within(card).getByRole('button', { name: 'Delete' }));
    fireEvent.click(within(card).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(api.callsTo('DELETE /api/creations/job-7')).toHaveLength(1);
  });

  it('opens a result in a viewer, compared with its input; Escape closes it', async () => {
    await open('/creations', routes(), 'My Creations');
    await waitFor(() => expect(cards()).toHaveLength(2));
    fireEvent.click(within(cards()[0] as HTMLElement).getByRole('button', { name: 'Open' }));
    const viewer = screen.getByRole('dialog', { name: 'Colorizer' });
    expect(within(viewer).getByRole('slider', { name: 'Before and after' })).toBeTruthy();
    expect(within(viewer).getByRole('img', { name: 'Colorizer result 1' }).getAttribute('src')).toBe(
      storedImage(4).url,
    );
    act(() => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    });
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers Refine on a cut-out (not on other results) and lists its versions to open', async () => {
    const refined = creation({ id: 'job-9', versions: ['job-7', 'job-9'], createdAt: '2026-11-23T20:00:00.000Z' });
    const original = creation({ versions: ['job-7', 'job-9'] });
    await open(
      '/creations',
      routes({ 'GET /api/creations': creationList(refined, colorized, original) }),
      'My Creations',
    );
    await waitFor(() => expect(cards()).toHaveLength(3));
    fireEvent.click(within(cards()[1] as HTMLElement).getByRole('button', { name: 'Open' }));
    expect(
      within(screen.getByRole('dialog', { name: 'Colorizer' })).queryByRole('button', { name: 'Refine' }),
    ).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));

    fireEvent.click(within(cards()[0] as HTMLElement).getByRole('button', { name: 'Open' }));
    const viewer = screen.getByRole('dialog', { name: 'Background Remover' });
    expect(within(viewer).getByRole('button', { name: 'Refine' })).toBeTruthy();
    const versions = within(viewer).getByRole('navigation', { name: 'Versions' });
    expect(versions.textContent).toContain('Version 2 of 2');
    expect(within(versions).getByRole('button', { name: 'Version 2' }).getAttribute('aria-current')).toBe('true');
    fireEvent.click(within(versions).getByRole('button', { name: 'Original' }));
    await waitFor(() =>
      expect(
        within(screen.getByRole('dialog', { name: 'Background Remover' }))
          .getByRole('button', { name: 'Original' })
          .getAttribute('aria-current'),
      ).toBe('true'),
    );
  });

  it('downloads and shares from the viewer, under the spec’s name for the tool', async () => {
    const shareUrl = '/shared/Zr4kP9mWq2xYt7vB3nLs8cDf';
    const saved: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this.download);
    });
    const { api } = await open(
      '/creations',
      routes({
        'POST /api/creations/job-8/share': { body: { shareUrl } },
        [`GET ${storedImage(4).url}`]: { body: 'image' },
      }),
      'My Creations',
    );
    await waitFor(() => expect(cards()).toHaveLength(2));
    fireEvent.click(within(cards()[0] as HTMLElement).getByRole('button', { name: 'Open' }));
    const viewer = screen.getByRole('dialog', { name: 'Colorizer' });
    fireEvent.click(within(viewer).getByRole('button', { name: 'Download colorized-image.webp' }));
    await waitFor(() => expect(saved).toEqual(['colorized-image.webp']));
    expect(api.callsTo(`GET ${storedImage(4).url}`)).toHaveLength(1);

    const toggle = within(viewer).getByRole('switch', { name: 'Share link' }) as HTMLInputElement;
    fireEvent.click(toggle);
    const link = (await within(viewer).findByRole('textbox', { name: 'Share link' })) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}${shareUrl}`);
    expect(api.callsTo('POST /api/creations/job-8/share')).toHaveLength(1);
    // The grid's card says the same once the viewer closes.
    fireEvent.click(within(viewer).getByRole('button', { name: 'Close' }));
    const card = cards()[0] as HTMLElement;
    expect((within(card).getByRole('switch', { name: 'Share link' }) as HTMLInputElement).checked).toBe(true);
  });

  it('turns a share link on, shows it to copy, and off again', async () => {
    const shareUrl = '/shared/Zr4kP9mWq2xYt7vB3nLs8cDf';
    const { api } = await open(
      '/creations',
      routes({
        'POST /api/creations/job-8/share': { body: { shareUrl } },
        'DELETE /api/creations/job-8/share': { status: 204 },
      }),
      'My Creations',
    );
    await waitFor(() => expect(cards()).toHaveLength(2));
    const card = cards()[0] as HTMLElement;
    const toggle = within(card).getByRole('switch', { name: 'Share link' }) as HTMLInputElement;
    expect(toggle.checked).toBe(false);
    fireEvent.click(toggle);
    // The switch moves at once (a browser's click, and Playwright's check(), expect it to), before the server answers.
    expect(toggle.checked).toBe(true);
    const link = (await within(card).findByRole('textbox', { name: 'Share link' })) as HTMLInputElement;
    expect(link.value).toBe(`${window.location.origin}${shareUrl}`);
    expect(toggle.checked).toBe(true);
    fireEvent.click(toggle);
    expect(toggle.checked).toBe(false);
    await waitFor(() => expect(within(card).queryByRole('textbox', { name: 'Share link' })).toBeNull());
    expect(api.callsTo('DELETE /api/creations/job-8/share')).toHaveLength(1);
  });

  it('with nothing made yet, points to a tool', async () => {
    await open('/creations', routes({ 'GET /api/creations': creationList() }), 'My Creations');
    const empty = await screen.findByTestId('creations-empty');
    expect(within(empty).getByRole('link', { name: 'Try Text to Pic' }).getAttribute('href')).toBe('/text-to-pic');
  });

  it('asks a visitor to sign in', async () => {
    installFakeApi(signedOutRoutes());
    renderApp('/creations');
    expect(await screen.findByRole('link', { name: 'Sign in or create an account' })).toBeTruthy();
  });
});
