// Issue 40 in My Creations: a batch's jobs are one card, however the pages of the list split them;
// it opens to its images and deletes as one.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { batchCreation, batchItem, batchOf } from '../../../test-support/batch-fixtures';
import { creation, storedImage } from '../../../test-support/creation-fixtures';
import type { FakeRequest } from '../../../test-support/fake-api';
import { open, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';

setUpToolPageTests();

const cards = () => screen.getAllByTestId('creation');

/** Page 1: a single job and the batch's three newest images; page 2: its two oldest and an older single job. */
const pages = (request: FakeRequest) => {
  const cursor = new URLSearchParams(request.search).get('cursor');
  if (cursor === 'page-2') {
    return {
      body: {
        creations: [
          batchCreation('b-1', 1, 'b.png'),
          batchCreation('b-1', 0, 'a.png'),
          creation({ id: 'job-1', tool: 'colorizer' }),
        ],
        next: null,
      },
    };
  }
  return {
    body: {
      creations: [
        creation({ id: 'job-9' }),
        batchCreation('b-1', 4, 'e.png'),
        batchCreation('b-1', 3, 'd.png'),
        batchCreation('b-1', 2, 'c.png', { status: 'failed', outputs: [], refunded: 2 }),
      ],
      next: 'page-2',
    },
  };
};

const batchItems = ['a.png', 'b.png', 'c.png', 'd.png', 'e.png'].map((name, item) =>
  batchItem('b-1', item, name, {
    status: 'succeeded',
    outputs: [storedImage(200 + item)],
    resultName: `${name.slice(0, 1)}-background-removed.png`,
  }),
);

const routes = (extra = {}) =>
  signedIn(
    {},
    {
      'GET /api/creations': pages,
      'GET /api/batches/b-1': { body: batchOf('b-1', 5, batchItems) },
      ...extra,
    },
  );

const batchCard = () => {
  const card = cards().find((candidate) => candidate.dataset.batch === 'b-1');
  if (!card) throw new Error('no batch card');
  return card;
};

describe('My Creations with a batch', () => {
  it('shows a batch as one card, across the pages of the list', async () => {
    await open('/creations', routes(), 'My Creations');
    await waitFor(() => expect(cards()).toHaveLength(2));
    expect(within(batchCard()).getByRole('heading').textContent).toBe('Background Remover');
    expect(within(batchCard()).getByTestId('batch-label').textContent).toBe('Batch · 3 images');
    expect(batchCard().querySelectorAll('img')).toHaveLength(3);
    expect(within(batchCard()).getByRole('link', { name: 'Download all (.zip)' }).getAttribute('href')).toBe(
      '/api/batches/b-1/download',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(cards().filter((card) => card.dataset.batch === 'b-1')).toHaveLength(1);
    expect(within(batchCard()).getByTestId('batch-label').textContent).toBe('Batch · 5 images');
    expect(batchCard().querySelectorAll('img')).toHaveLength(4);
  });

  it('opens a batch to its images, with its zip', async () => {
    await open('/creations', routes(), 'My Creations');
    await waitFor(() => expect(cards()).toHaveLength(2));
    fireEvent.click(within(batchCard()).getByRole('button', { name: 'Open' }));
    const viewer = await screen.findByRole('dialog', { name: 'Background Remover: batch of 5 images' });
    await waitFor(() => expect(within(viewer).getAllByTestId('batch-tile')).toHaveLength(5));
    expect(within(viewer).getByRole('button', { name: 'Download c-background-removed.png' })).toBeTruthy();
    expect(within(viewer).getByRole('link', { name: 'Download all (.zip)' }).getAttribute('href')).toBe(
      '/api/batches/b-1/download',
    );
    fireEvent.click(within(viewer).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('counts every image of a batch it opens, the refused ones failed with their sentence (issue 54)', async () => {
    const tooSmall = 'This image is too small: it needs at least 64 pixels on each side.';
    const sent = [...batchItems.slice(0, 2), batchItem('b-1', 2, 'c.png', { status: 'running' })];
    await open(
      '/creations',
      routes({
        'GET /api/batches/b-1': {
          body: batchOf('b-1', 5, sent, { refused: [{ item: 3, name: 'tiny.png', error: tooSmall }] }),
        },
      }),
      'My Creations',
    );
    await waitFor(() => expect(cards()).toHaveLength(2));
    fireEvent.click(within(batchCard()).getByRole('button', { name: 'Open' }));
    const viewer = await screen.findByRole('dialog', { name: 'Background Remover: batch of 5 images' });
    await waitFor(() => expect(within(viewer).getAllByTestId('batch-tile')).toHaveLength(4));
    const names = within(viewer)
      .getAllByTestId('batch-tile')
      .map((tile) => tile.querySelector('.pp-batch-tile__name')?.textContent);
    expect(names).toEqual(['a.png', 'b.png', 'c.png', 'tiny.png']);
    const refused = within(viewer).getAllByTestId('batch-tile')[3] as HTMLElement;
    expect(within(refused).getByTestId('batch-badge').textContent).toBe('Failed');
    expect(refused.textContent).toContain(tooSmall);
    expect(within(viewer).getByTestId('batch-viewer-counts').textContent).toBe(
      '2 done · 1 failed · 1 still running · 1 not sent',
    );
    // One still runs: the zip gives the two finished, and says so.
    expect(within(viewer).getByRole('link', { name: 'Download the 2 finished' })).toBeTruthy();
  });

  it('deletes a batch after a confirmation, and says why while its images still run', async () => {
    const stillRunning = 'This batch is still running. You can delete it when all its images are done.';
    const { api } = await open(
      '/creations',
      routes({ 'DELETE /api/batches/b-1': [{ status: 409, body: { error: stillRunning } }, { status: 204 }] }),
      'My Creations',
    );
    await waitFor(() => expect(cards()).toHaveLength(2));
    fireEvent.click(within(batchCard()).getByRole('button', { name: 'Delete batch' }));
    expect(within(batchCard()).getByRole('region', { name: 'Confirm deletion' }).textContent).toContain(
      'Delete this batch? Its 3 images are removed for good',
    );
    fireEvent.click(within(batchCard()).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(within(batchCard()).getByTestId('batch-delete-message').textContent).toBe(stillRunning));
    expect(cards()).toHaveLength(2);

    fireEvent.click(within(batchCard()).getByRole('button', { name: 'Delete batch' }));
    fireEvent.click(within(batchCard()).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(cards()).toHaveLength(1));
    expect(api.callsTo('DELETE /api/batches/b-1')).toHaveLength(2);
    expect(within(cards()[0] as HTMLElement).getByRole('heading').textContent).toBe('Background Remover');
    expect((cards()[0] as HTMLElement).dataset.batch).toBeUndefined();
  });
});
