import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../app/test-utils';
import {
  deferred,
  type FakeReply,
  installFakeApi,
  PROFILE,
  signedInRoutes,
  signedOutRoutes,
} from '../../test-support/fake-api';
import {
  chooseFiles,
  chooseImage,
  fileUrl,
  imageFile,
  imagesAnswer,
  toolsInfoAnswer,
} from '../../test-support/tool-fixtures';
import {
  AFTER_A_RETRY,
  action,
  nowHolds,
  open,
  sent,
  setUpToolPageTests,
  signedIn,
  toolMessage,
} from '../../test-support/tool-page-harness';

setUpToolPageTests();

describe('single-image tools', () => {
  it('keep the action off until an image is chosen, then show a preview with ×', async () => {
    await open('/colorizer', signedIn(), 'Colorizer');
    expect(action().disabled).toBe(true);
    await chooseImage(imageFile('old.jpg', 'image/jpeg'));
    expect(action().disabled).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Remove image' }));
    expect(screen.queryByRole('img', { name: 'Your image: old.jpg' })).toBeNull();
    expect(action().disabled).toBe(true);
  });

  it.each([
    [[imageFile('drawing.gif', 'image/gif')], 'Only PNG, JPG and WEBP images can be used.'],
    [[imageFile('vector.svg', 'image/svg+xml')], 'Only PNG, JPG and WEBP images can be used.'],
    [[imageFile('empty.png', 'image/png', 0)], 'This file is empty. Please choose another image.'],
  ])('say why a file is refused (%#)', async (files, text) => {
    await open('/background-remover', signedIn(), 'Background Remover');
    chooseFiles(...files);
    await screen.findByText(text);
    expect(screen.queryByRole('img', { name: /^Your image/ })).toBeNull();
  });

  // The six single-image tools take several files as a batch (batch/batch.test.tsx); a tool without
  // batches still takes one at a time.
  it('say that a tool without batches takes one image at a time', async () => {
    await open('/metamorphose', signedIn(), 'Metamorphose');
    chooseFiles(imageFile('a.png'), imageFile('b.png'));
    await screen.findByText('Please choose one image at a time.');
    expect(screen.queryByRole('img', { name: /^Your image/ })).toBeNull();
  });

  it('drop a file whose bytes are not an image, with one message and the action off', async () => {
    await open('/colorizer', signedIn(), 'Colorizer');
    const fake = new File(['just some text, not a picture'], 'fake.png', { type: 'image/png' });
    await chooseImage(fake);
    // The browser cannot decode it.
    fireEvent.error(screen.getByRole('img', { name: 'Your image: fake.png' }));
    await screen.findByText('This file is not a readable PNG, JPG or WEBP image. Please choose another.');
    expect(screen.queryByRole('img', { name: /^Your image/ })).toBeNull();
    expect(screen.queryByText('Error preparing image')).toBeNull();
    expect(action().disabled).toBe(true);
  });

  it('accept a dropped image and a pasted one', async () => {
    await open('/face-fixer', signedIn(), 'Fix a Face');
    const zone = document.querySelector('.pp-dropzone') as HTMLElement;
    fireEvent.drop(zone, { dataTransfer: { files: [imageFile('dropped.webp', 'image/webp')] } });
    await screen.findByRole('img', { name: 'Your image: dropped.webp' });
    const paste = new Event('paste', { bubbles: true, cancelable: true });
    Object.assign(paste, { clipboardData: { files: [imageFile('image.png')] } });
    act(() => {
      document.dispatchEvent(paste);
    });
    await screen.findByRole('img', { name: 'Your image: image.png' });
  });

  it.each([
    ['/colorizer', 'Colorizer', 'Please log in to colorize images.'],
    ['/background-remover', 'Background Remover', 'Please log in to remove background.'],
    ['/face-fixer', 'Fix a Face', 'Please log in to fix faces.'],
    ['/creative-upscale', 'Creative Upscaler', 'Please log in to upscale images.'],
    ['/image-upscaler', 'Image Upscaler', 'Please log in to upscale images.'],
    ['/image-analyzer', 'Image Analyzer', 'Please log in to analyze image.'],
  ])('%s asks a visitor to log in', async (path, title, text) => {
    await open(path, signedOutRoutes(), title);
    expect(screen.getByTestId('account-banner').textContent).toContain(`Please log in to use the ${title}.`);
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe(text));
  });

  it.each([
    ['/colorizer', 'Colorizer', 5],
    ['/background-remover', 'Background Remover', 1],
    ['/face-fixer', 'Fix a Face', 1],
    ['/creative-upscale', 'Creative Upscaler', 69],
    ['/image-upscaler', 'Image Upscaler', 0],
    ['/image-analyzer', 'Image Analyzer', 0],
  ])('%s sends a user short of tokens to /tokens', async (path, title, tokens) => {
    const { router, api } = await open(path, signedIn({ tokens }), title);
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(router.state.location.pathname).toBe('/tokens'));
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(0);
  });

  it('keep the image and settings across the trip to /tokens, which says what was needed', async () => {
    await open('/creative-upscale', signedIn({ tokens: 20 }), 'Creative Upscaler');
    await chooseImage(imageFile('portrait.png'));
    fireEvent.click(action());
    const notice = await screen.findByTestId('tool-draft-notice');
    expect(notice.textContent).toContain('Creative Upscaler needs 70 tokens; you have 20 tokens.');
    expect(notice.textContent).toContain('Your image and settings are kept');
    fireEvent.click(screen.getByRole('link', { name: 'Back to Creative Upscaler' }));
    await screen.findByRole('img', { name: 'Your image: portrait.png' });
    expect(action().disabled).toBe(false);
  });

  it('Image Upscaler comes back with its scale', async () => {
    const { router } = await open('/image-upscaler', signedIn({ tokens: 0 }), 'Image Upscaler');
    fireEvent.click(screen.getByRole('radio', { name: '4x' }));
    await chooseImage(imageFile('small.png'));
    fireEvent.click(action());
    await waitFor(() => expect(router.state.location.pathname).toBe('/tokens'));
    fireEvent.click(await screen.findByRole('link', { name: 'Back to Image Upscaler' }));
    await screen.findByRole('img', { name: 'Your image: small.png' });
    expect((screen.getByRole('radio', { name: '4x' }) as HTMLInputElement).checked).toBe(true);
  });

  it('Creative Upscaler follows this server’s price: 1 token runs it, 0 keeps it off', async () => {
    const tools = { 'GET /api/tools': toolsInfoAnswer('creative-upscaler', 'local', 1) };
    const { api } = await open(
      '/creative-upscale',
      signedIn({ tokens: 1 }, { ...tools, 'POST /api/creative-upscale': imagesAnswer(fileUrl(1), 0) }),
      'Creative Upscaler',
    );
    await waitFor(() => expect(action().textContent).toBe('Creative Upscale1 token'));
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(api.callsTo('POST /api/creative-upscale')).toHaveLength(1));
    await nowHolds(api, 0);
    expect(action().disabled).toBe(true);
  });

  it('Creative Upscaler is off outright at a balance of 0', async () => {
    await open('/creative-upscale', signedIn({ tokens: 0 }), 'Creative Upscaler');
    await chooseImage();
    expect(action().disabled).toBe(true);
  });

  it('are off for an unverified or disputed account', async () => {
    await open('/face-fixer', signedIn({ emailVerified: false }), 'Fix a Face');
    expect(action().disabled).toBe(true);
    expect((screen.getByTestId('image-input') as HTMLInputElement).disabled).toBe(true);
  });

  it('show the dispute message in red', async () => {
    await open('/image-analyzer', signedIn({ isDispute: true }), 'Image Analyzer');
    expect(screen.getByRole('alert').textContent).toBe(
      'Account suspended due to open dispute. Please contact support.',
    );
    expect(action().disabled).toBe(true);
  });

  it('× clears the image and the result', async () => {
    await open(
      '/background-remover',
      signedIn({}, { 'POST /api/remove-background': imagesAnswer(fileUrl(1), 18) }),
      'Background Remover',
    );
    await chooseImage();
    fireEvent.click(action());
    await screen.findByRole('img', { name: 'Cut-out of photo.png' });
    fireEvent.click(screen.getByRole('button', { name: 'Remove image' }));
    expect(screen.queryByRole('img', { name: 'Cut-out of photo.png' })).toBeNull();
    expect(screen.queryByRole('img', { name: /^Your image/ })).toBeNull();
  });

  it.each([
    [
      {
        status: 502,
        body: { success: false, error: 'Face fixing failed. Please try again.', refunded: true, balance: 20 },
      },
      'Face fixing failed. Please try again.',
    ],
    ['network-error' as const, 'Face fixing failed. Please try again.'],
    [
      {
        status: 413,
        body: { success: false, error: 'This image is larger than 10 MB, the limit. Please choose a smaller file.' },
      },
      'This image is larger than 10 MB, the limit. Please choose a smaller file.',
    ],
  ])('show the spec’s failure message, or what to change (%#)', async (reply, text) => {
    await open('/face-fixer', signedIn({}, { 'POST /api/fix-face': reply }), 'Fix a Face');
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe(text), AFTER_A_RETRY);
    expect(screen.queryByTestId('tool-message-detail')).toBeNull();
  });

  it('Fix a Face and Creative Upscaler send scale 2 and state the 2x input limit', async () => {
    const { api } = await open(
      '/creative-upscale',
      signedIn({ tokens: 100 }, { 'POST /api/creative-upscale': imagesAnswer(fileUrl(1), 30) }),
      'Creative Upscaler',
    );
    expect(screen.getByText('One PNG, JPG or WEBP image. Largest input: 2048 x 2048 px.')).toBeTruthy();
    await chooseImage();
    fireEvent.click(action());
    await screen.findByRole('img', { name: 'Upscaled (2x) of photo.png' });
    expect(sent(api, 'POST /api/creative-upscale').scale).toBe(2);
  });
});

describe('while the first auth check runs', () => {
  it('keeps the action off', async () => {
    const pending = deferred<FakeReply>();
    installFakeApi({ ...signedInRoutes(), 'GET /api/auth/get-session': () => pending.promise });
    renderApp('/text-lab');
    await screen.findByRole('heading', { level: 1, name: 'Text Lab' });
    expect(action().disabled).toBe(true);
    await act(async () => pending.resolve({ body: { session: {}, user: { ...PROFILE, id: 'user-1' } } }));
    await waitFor(() => expect(action().disabled).toBe(false));
  });
});
