// "Send to Upscaler / Background Remover / Background Swap / Analyzer": a result opens in another
// tool as its image, without a download; the call names the stored file instead of carrying it.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { creation, creationList, storedImage } from '../../test-support/creation-fixtures';
import { chooseImage, fileUrl, imagesAnswer } from '../../test-support/tool-fixtures';
import { action, open, sent, setUpToolPageTests, signedIn, typePrompt } from '../../test-support/tool-page-harness';
import { SENT_IMAGE_NAME } from './ToolWorkspace';

setUpToolPageTests();

const FILE_ID = '00000000-0000-4000-8000-000000000001';

describe('send a result to another tool', () => {
  it('Colorizer’s result goes to the Image Upscaler, which sends the stored file’s reference', async () => {
    const { api } = await open(
      '/colorizer',
      signedIn(
        {},
        {
          'POST /api/colorize-image': imagesAnswer(fileUrl(1), 18),
          'POST /api/upscale-image': imagesAnswer(fileUrl(2), 16),
        },
      ),
      'Colorizer',
    );
    await chooseImage();
    fireEvent.click(action());
    fireEvent.click(await screen.findByRole('button', { name: 'Send to another tool' }));
    const items = within(screen.getByRole('menu', { name: 'Use this result in another tool' })).getAllByRole(
      'menuitem',
    );
    expect(items.map((item) => item.textContent)).toEqual([
      'Send to Background Remover',
      'Send to Background Swap',
      'Send to Upscaler',
      'Send to Analyzer',
    ]);
    fireEvent.click(screen.getByRole('menuitem', { name: 'Send to Upscaler' }));
    await screen.findByRole('heading', { level: 1, name: 'Image Upscaler' });
    const preview = screen.getByRole('img', { name: `Your image: ${SENT_IMAGE_NAME}` });
    expect(preview.getAttribute('src')).toBe(`/api/files/${FILE_ID}`);
    // Measured, it shows its pixel size alone: a stored file has no file size here, and no stray dot.
    Object.defineProperty(preview, 'naturalWidth', { value: 640 });
    Object.defineProperty(preview, 'naturalHeight', { value: 427 });
    fireEvent.load(preview);
    await waitFor(() => expect(screen.getByTestId('image-facts').textContent).toBe('640 × 427 px'));
    await waitFor(() => expect(action().disabled).toBe(false));
    fireEvent.click(action());
    await screen.findByRole('img', { name: /Upscaled/ });
    expect(sent(api, 'POST /api/upscale-image').image).toBe(`/api/files/${FILE_ID}`);
  });

  it('Background Swap sends the reference as it is (not stripped like base64)', async () => {
    const { api } = await open(
      `/background-swap?image=${FILE_ID}`,
      signedIn({ tokens: 100 }, { 'POST /api/background-swap': imagesAnswer([fileUrl(2)], 0) }),
      'Background Swap',
    );
    typePrompt('a beach at dusk', 'New Background Description');
    fireEvent.click(action());
    await waitFor(() => expect(api.callsTo('POST /api/background-swap')).toHaveLength(1));
    expect(sent(api, 'POST /api/background-swap').image).toBe(`/api/files/${FILE_ID}`);
  });

  it('offers nothing to send for a free preview’s result: a labelled placeholder', async () => {
    await open(
      '/colorizer',
      signedIn({}, { 'POST /api/colorize-image': imagesAnswer(fileUrl(1), 20, true) }),
      'Colorizer',
    );
    await chooseImage();
    fireEvent.click(action());
    await screen.findByRole('button', { name: 'Download' });
    expect(screen.queryByRole('button', { name: /^Send to/ })).toBeNull();
    expect(screen.queryByRole('menu', { hidden: true })).toBeNull();
  });

  it('offers nothing to send for a free preview shown again when the page opens', async () => {
    const preview = creation({ tool: 'background-swap', demo: true, charged: 0, cost: 25, outputs: [storedImage(2)] });
    await open('/background-swap', signedIn({}, { 'GET /api/creations': creationList(preview) }), 'Background Swap');
    await screen.findByRole('button', { name: 'Download' });
    expect(screen.queryByRole('button', { name: /^Send to/ })).toBeNull();
  });

  it('does not offer a tool its own result, and an address that names no file id sets no image', async () => {
    await open(
      '/image-upscaler?image=not-a-file',
      signedIn({}, { 'POST /api/upscale-image': imagesAnswer(fileUrl(2), 16) }),
      'Image Upscaler',
    );
    expect(screen.queryByRole('img', { name: /Your image/ })).toBeNull();
    await chooseImage();
    fireEvent.click(action());
    await screen.findByRole('img', { name: /Upscaled/ });
    fireEvent.click(screen.getByRole('button', { name: 'Send to another tool' }));
    expect(screen.queryByRole('menuitem', { name: 'Send to Upscaler' })).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Send to Analyzer' })).toBeTruthy();
  });
});
