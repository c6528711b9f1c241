// Issue 40: a batch short of tokens goes to /tokens with its images kept (lib/batch-draft.ts, here an
// in-memory store: happy-dom has no IndexedDB), and the tool's page shows them again on the way back.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { setBatchDraftStore } from '../../../lib/batch-draft';
import { withMemoryDraftStore } from '../../../test-support/draft-store';
import { chooseFiles, imageFile } from '../../../test-support/tool-fixtures';
import { open, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';

setUpToolPageTests();
const store = withMemoryDraftStore();

const tileNames = () =>
  screen.getAllByTestId('batch-tile').map((tile) => tile.querySelector('.pp-batch-tile__name')?.textContent);

/** Opens `path` short of tokens, chooses `files` into a batch and follows "Buy tokens" to /tokens. */
async function buyTokensFrom(path: string, title: string, files: File[], before?: () => void) {
  const view = await open(path, signedIn({ tokens: 1 }), title);
  before?.();
  chooseFiles(...files);
  await screen.findByRole('heading', { name: /Your batch/ });
  fireEvent.click(screen.getByRole('link', { name: 'Buy tokens' }));
  await waitFor(() => expect(view.router.state.location.pathname).toBe('/tokens'));
  return view;
}

describe('a batch sent to buy tokens', () => {
  it('keeps its usable images, and the page shows them again in order on the way back', async () => {
    await buyTokensFrom('/background-remover', 'Background Remover', [
      imageFile('IMG_2.jpg', 'image/jpeg'),
      new File(['notes'], 'notes.txt', { type: 'text/plain' }),
      imageFile('IMG_1.jpg', 'image/jpeg'),
      imageFile('b.png'),
    ]);
    const kept = store.current.values.get('batch') as { toolId: string; files: { file: File; name: string }[] };
    expect(kept.toolId).toBe('background-remover');
    expect(kept.files.map(({ name }) => name)).toEqual(['IMG_2.jpg', 'IMG_1.jpg', 'b.png']);
    const notice = await screen.findByTestId('tool-draft-notice');
    expect(notice.textContent).toContain('Background Remover needs 6 tokens; you have 1 token.');
    expect(notice.textContent).toContain('Your 3 images and settings are kept');

    fireEvent.click(screen.getByRole('link', { name: 'Back to Background Remover' }));
    await screen.findByRole('heading', { name: /Your batch/ });
    expect(tileNames()).toEqual(['IMG_2.jpg', 'IMG_1.jpg', 'b.png']);
    expect(screen.getByTestId('batch-cost').textContent).toContain('3 images x 2 tokens = 6 tokens');
    // Taken: a later visit starts empty.
    expect(store.current.values.size).toBe(0);
  });

  it('Image Upscaler comes back with its images and its scale', async () => {
    await buyTokensFrom('/image-upscaler', 'Image Upscaler', [imageFile('a.png'), imageFile('b.png')], () =>
      fireEvent.click(screen.getByRole('radio', { name: '4x' })),
    );
    fireEvent.click(await screen.findByRole('link', { name: 'Back to Image Upscaler' }));
    await screen.findByRole('heading', { name: /Your batch/ });
    expect(tileNames()).toEqual(['a.png', 'b.png']);
    expect((screen.getByRole('radio', { name: '4x' }) as HTMLInputElement).checked).toBe(true);
  });

  it('with one usable image comes back to the single page with it', async () => {
    await buyTokensFrom('/colorizer', 'Colorizer', [
      new File(['notes'], 'notes.txt', { type: 'text/plain' }),
      imageFile('old.jpg', 'image/jpeg'),
    ]);
    fireEvent.click(await screen.findByRole('link', { name: 'Back to Colorizer' }));
    await screen.findByRole('img', { name: 'Your image: old.jpg' });
    expect(screen.queryByTestId('batch-picker')).toBeNull();
  });

  it('is not restored on another tool’s page, which leaves it for its own', async () => {
    const { router } = await buyTokensFrom('/background-remover', 'Background Remover', [
      imageFile('a.png'),
      imageFile('b.png'),
    ]);
    await router.navigate('/colorizer');
    await screen.findByRole('heading', { level: 1, name: 'Colorizer' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('batch-picker')).toBeNull();
    expect(store.current.values.size).toBe(1);
    await router.navigate('/background-remover');
    await screen.findByRole('heading', { name: /Your batch/ });
    expect(tileNames()).toEqual(['a.png', 'b.png']);
  });

  it('without IndexedDB still goes to /tokens, keeping the settings, and comes back empty', async () => {
    setBatchDraftStore(null);
    await buyTokensFrom('/face-fixer', 'Fix a Face', [imageFile('a.png'), imageFile('b.png')]);
    expect((await screen.findByTestId('tool-draft-notice')).textContent).toContain(
      'Your settings are kept for when you go back.',
    );
    fireEvent.click(screen.getByRole('link', { name: 'Back to Fix a Face' }));
    await screen.findByRole('heading', { level: 1, name: 'Fix a Face' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('batch-picker')).toBeNull();
    expect(screen.getByTestId('tool-action')).toBeTruthy();
  });

  it('with a store that fails still goes to /tokens', async () => {
    store.current.put = () => Promise.reject(new Error('QuotaExceededError'));
    await buyTokensFrom('/colorizer', 'Colorizer', [imageFile('a.png'), imageFile('b.png')]);
    expect((await screen.findByTestId('tool-draft-notice')).textContent).toContain('Your settings are kept');
  });

  it('waits while a batch is in the URL, and gives way to a newer draft of one image', async () => {
    const keep = () =>
      store.current.values.set('batch', {
        toolId: 'colorizer',
        savedAt: Date.now(),
        files: [
          { file: imageFile('a.png'), name: 'a.png' },
          { file: imageFile('b.png'), name: 'b.png' },
        ],
      });
    keep();
    const { router } = await open(
      '/colorizer?batch=b-9',
      signedIn({ tokens: 1 }, { 'GET /api/batches/b-9': { status: 404, body: { error: 'Not found.' } } }),
      'Colorizer',
    );
    // A batch in the URL shows that batch: the kept one waits.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(store.current.values.size).toBe(1);
    await router.navigate('/tokens');
    await screen.findByRole('heading', { level: 1, name: /tokens/i });
    await router.navigate('/colorizer');
    await screen.findByRole('heading', { name: /Your batch/ });
    fireEvent.click(screen.getByRole('button', { name: 'Remove b.png' }));
    await screen.findByRole('img', { name: 'Your image: a.png' });
    // One image short of tokens: its draft (sessionStorage) is newer than any batch kept before.
    fireEvent.click(screen.getByTestId('tool-action'));
    const back = await screen.findByRole('link', { name: 'Back to Colorizer' });
    keep();
    fireEvent.click(back);
    await screen.findByRole('img', { name: 'Your image: a.png' });
    await waitFor(() => expect(store.current.values.size).toBe(0));
    expect(screen.queryByTestId('batch-picker')).toBeNull();
  });

  it('a modified click leaves the page and its batch as they are (the browser opens a new tab)', async () => {
    const { router } = await open('/colorizer', signedIn({ tokens: 1 }), 'Colorizer');
    chooseFiles(imageFile('a.png'), imageFile('b.png'));
    const link = await screen.findByRole('link', { name: 'Buy tokens' });
    fireEvent.click(link, { ctrlKey: true });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(router.state.location.pathname).toBe('/colorizer');
    expect(store.current.values.size).toBe(0);
  });
});
