import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '../../../contract/accounts';
import { TOOL_MESSAGES } from '../../../contract/tools';
import { renderApp, setViewportWidth } from '../../app/test-utils';
import {
  deferred,
  type FakeApi,
  type FakeReply,
  type FakeRoutes,
  installFakeApi,
  PROFILE,
  signedInRoutes,
  signedOutRoutes,
} from '../../test-support/fake-api';
import { chooseFiles, chooseImage, fileUrl, imageFile, imagesAnswer } from '../../test-support/tool-fixtures';
import { forgetToolsInfo, JOB_POLL_MS, TOOL_CALL_RETRY_MS } from './tool-api';

/** A call whose connection fails is sent once more (same Idempotency-Key) before the page reports it. */
const AFTER_A_RETRY = { timeout: TOOL_CALL_RETRY_MS + 2000 };

const action = () => screen.getByTestId('tool-action') as HTMLButtonElement;
const toolMessage = () => screen.getByTestId('tool-message').textContent;
const balanceText = () => screen.getByTestId('token-balance').textContent ?? '';
const prompt = (name = 'Prompt') => screen.getByRole('textbox', { name });
const typePrompt = (text: string, name?: string) => fireEvent.change(prompt(name), { target: { value: text } });

async function open(path: string, routes: FakeRoutes, heading: string) {
  const api = installFakeApi(routes);
  const view = renderApp(path);
  await screen.findByRole('heading', { level: 1, name: heading });
  await waitFor(() => expect(screen.getByTestId('token-balance').getAttribute('aria-busy')).toBeNull());
  return { api, ...view };
}

/** The visitor is now signed in with this balance (the page learns it on window focus). */
async function nowHolds(api: FakeApi, tokens: number) {
  api.set(signedInRoutes({ tokens }));
  act(() => {
    window.dispatchEvent(new Event('focus'));
  });
  await waitFor(() => expect(balanceText()).toContain(`${tokens} tokens`));
}

/** The body of the first call to `route`. */
function sent(api: FakeApi, route: string): Record<string, unknown> {
  const call = api.callsTo(route)[0];
  if (!call) throw new Error(`no call to ${route}`);
  return call.body as Record<string, unknown>;
}

const signedIn = (overrides: Partial<Profile> = {}, extra: FakeRoutes = {}) => ({
  ...signedInRoutes(overrides),
  ...extra,
});

beforeEach(() => {
  setViewportWidth(1280);
  forgetToolsInfo();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setViewportWidth(1024);
});

describe('Text to Pic', () => {
  it('asks a visitor to log in, in the header and on Generate', async () => {
    const { api } = await open('/text-to-pic', signedOutRoutes(), 'Text to Pic');
    expect(screen.getByTestId('account-banner').textContent).toContain('Please log in to use the Text to Pic.');
    typePrompt('a red fox');
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Please log in to generate images.'));
    expect(api.callsTo('POST /api/generate-image')).toHaveLength(0);
  });

  it('offers only the counts the balance covers, and prices the button', async () => {
    await open('/text-to-pic', signedIn({ tokens: 2 }), 'Text to Pic');
    const count = (n: number) => screen.getByRole('radio', { name: String(n) }) as HTMLInputElement;
    expect([1, 2, 3, 4].map((n) => count(n).disabled)).toEqual([false, false, true, true]);
    expect(action().textContent).toBe('Generate1 token');
    fireEvent.click(count(2));
    expect(action().textContent).toBe('Generate2 tokens');
  });

  it('sends the spec’s body, shows Generating..., the images, and the server’s balance', async () => {
    const pending = deferred<FakeReply>();
    const { api } = await open(
      '/text-to-pic',
      signedIn({ tokens: 20 }, { 'POST /api/generate-image': () => pending.promise }),
      'Text to Pic',
    );
    typePrompt('a red fox');
    fireEvent.change(screen.getByRole('combobox', { name: 'Aspect ratio' }), { target: { value: '16:9' } });
    fireEvent.click(screen.getByRole('radio', { name: '2' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Med' }));
    fireEvent.click(action());
    await waitFor(() => expect(action().textContent).toBe('Generating...'));
    expect(action().disabled).toBe(true);
    const body = sent(api, 'POST /api/generate-image');
    expect(Object.keys(body).sort()).toEqual(
      ['aspectRatio', 'goFast', 'numOutputs', 'outputFormat', 'outputQuality', 'prompt', 'quality', 'userId'].sort(),
    );
    expect([body.prompt, body.aspectRatio, body.numOutputs, body.userId]).toEqual(['a red fox', '16:9', 2, 'user-1']);
    // Quality med is output quality 66; the spec always asks for fast webp.
    expect([body.quality, body.outputQuality, body.goFast, body.outputFormat]).toEqual(['med', 66, true, 'webp']);
    await act(async () => pending.resolve(imagesAnswer([fileUrl(1), fileUrl(2)], 18)));
    const images = await screen.findAllByRole('img', { name: /^Generated image \d: a red fox$/ });
    expect(images.map((img) => img.getAttribute('src'))).toEqual([fileUrl(1), fileUrl(2)]);
    expect(balanceText()).toContain('18 tokens');
    expect(action().textContent).toBe('Generate2 tokens');
  });

  it('replaces the previous result with the new one', async () => {
    await open(
      '/text-to-pic',
      signedIn(
        { tokens: 20 },
        { 'POST /api/generate-image': [imagesAnswer([fileUrl(1), fileUrl(2)], 18), imagesAnswer([fileUrl(3)], 17)] },
      ),
      'Text to Pic',
    );
    typePrompt('first');
    fireEvent.click(action());
    await waitFor(() => expect(screen.getAllByRole('img', { name: /^Generated image/ })).toHaveLength(2));
    typePrompt('second');
    fireEvent.click(action());
    await screen.findByRole('img', { name: 'Generated image 1: second' });
    expect(screen.getAllByRole('img', { name: /^Generated image/ }).map((img) => img.getAttribute('src'))).toEqual([
      fileUrl(3),
    ]);
    expect(balanceText()).toContain('17 tokens');
  });

  it('sends a user with no tokens to /tokens', async () => {
    const { router, api } = await open('/text-to-pic', signedIn({ tokens: 0 }), 'Text to Pic');
    typePrompt('a red fox');
    fireEvent.click(action());
    await waitFor(() => expect(router.state.location.pathname).toBe('/tokens'));
    expect(api.callsTo('POST /api/generate-image')).toHaveLength(0);
  });

  it('says “Not enough tokens” when the chosen count outgrows the balance', async () => {
    const { api } = await open(
      '/text-to-pic',
      signedIn({ tokens: 4 }, { 'POST /api/generate-image': imagesAnswer([1, 2, 3, 4].map(fileUrl), 1) }),
      'Text to Pic',
    );
    typePrompt('a red fox');
    fireEvent.click(screen.getByRole('radio', { name: '4' }));
    fireEvent.click(action());
    await waitFor(() => expect(balanceText()).toContain('1 token'));
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Not enough tokens. Please purchase more.'));
    expect(api.callsTo('POST /api/generate-image')).toHaveLength(1);
  });

  it('does not send an empty prompt', async () => {
    const { api } = await open('/text-to-pic', signedIn(), 'Text to Pic');
    fireEvent.click(action());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(prompt().hasAttribute('required')).toBe(true);
    expect(api.callsTo('POST /api/generate-image')).toHaveLength(0);
  });

  it.each([
    [
      { status: 502, body: { success: false, error: 'Failed to generate image', refunded: true, balance: 20 } },
      'Failed to generate image',
    ],
    [
      { status: 400, body: { success: false, error: 'prompt: must be at most 2000 characters' } },
      'prompt: must be at most 2000 characters',
    ],
    [{ status: 200, body: { success: false } }, 'An error occurred'],
    ['network-error' as const, 'Technical difficulties. Please try again in a few moments.'],
  ])('shows what went wrong (%#)', async (reply, text) => {
    await open('/text-to-pic', signedIn({}, { 'POST /api/generate-image': reply }), 'Text to Pic');
    typePrompt('a red fox');
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe(text), AFTER_A_RETRY);
    expect(action().disabled).toBe(false);
  });

  it('follows a job the server is still running, then shows its images', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const jobId = '11111111-2222-4333-8444-555555555555';
    const { api } = await open(
      '/text-to-pic',
      signedIn(
        { tokens: 20 },
        {
          'POST /api/generate-image': {
            status: 202,
            body: { success: false, pending: true, jobId, status: 'queued', balance: 19 },
          },
          [`GET /api/jobs/${jobId}`]: [
            { body: { id: jobId, status: 'running', output: null, keywords: null, colors: null, error: null } },
            {
              body: { id: jobId, status: 'succeeded', output: [fileUrl(1)], keywords: null, colors: null, error: null },
            },
          ],
        },
      ),
      'Text to Pic',
    );
    typePrompt('a slow fox');
    fireEvent.click(action());
    await screen.findByText('Queued: waiting for a free worker…');
    expect(balanceText()).toContain('19 tokens');
    await act(() => vi.advanceTimersByTimeAsync(JOB_POLL_MS));
    await screen.findByText('Working on it: this can take a minute…');
    await act(() => vi.advanceTimersByTimeAsync(JOB_POLL_MS));
    await screen.findByRole('img', { name: 'Generated image 1: a slow fox' });
    expect(api.callsTo(`GET /api/jobs/${jobId}`)).toHaveLength(2);
  });

  it('shows a failed job’s error', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const jobId = '11111111-2222-4333-8444-666666666666';
    await open(
      '/text-to-pic',
      signedIn(
        {},
        {
          'POST /api/generate-image': {
            status: 202,
            body: { success: false, pending: true, jobId, status: 'running' },
          },
          [`GET /api/jobs/${jobId}`]: {
            body: {
              id: jobId,
              status: 'failed',
              output: null,
              keywords: null,
              colors: null,
              error: 'Failed to generate image',
            },
          },
        },
      ),
      'Text to Pic',
    );
    typePrompt('a slow fox');
    fireEvent.click(action());
    await act(() => vi.advanceTimersByTimeAsync(JOB_POLL_MS));
    await waitFor(() => expect(toolMessage()).toBe('Failed to generate image'));
  });

  it('downloads an image when it is clicked, with the spec’s file name', async () => {
    const clicks: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ name: this.download, href: this.href });
    });
    const { api } = await open(
      '/text-to-pic',
      signedIn(
        {},
        {
          'POST /api/generate-image': imagesAnswer([fileUrl(1), fileUrl(2)], 18),
          [`GET ${fileUrl(1)}`]: { body: 'one' },
          [`GET ${fileUrl(2)}`]: { body: 'two' },
        },
      ),
      'Text to Pic',
    );
    typePrompt('a red fox');
    fireEvent.click(action());
    fireEvent.click(await screen.findByRole('button', { name: 'Download generated-image-2.webp' }));
    await waitFor(() => expect(clicks.map((click) => click.name)).toEqual(['generated-image-2.webp']));
    expect(api.calls.some((call) => call.path === fileUrl(2))).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Download image 1' }));
    await waitFor(() => expect(clicks.map((click) => click.name)).toContain('generated-image-1.webp'));
  });

  it('says so when a download fails', async () => {
    await open(
      '/text-to-pic',
      signedIn({}, { 'POST /api/generate-image': imagesAnswer([fileUrl(1)], 19) }),
      'Text to Pic',
    );
    typePrompt('a red fox');
    fireEvent.click(action());
    fireEvent.click(await screen.findByRole('button', { name: 'Download' }));
    await screen.findByText('Failed to download image');
  });

  it('locks a suspended account with the red fraud message first', async () => {
    await open('/text-to-pic', signedIn({ isFraudulent: true, isDispute: true }), 'Text to Pic');
    const banner = screen.getByRole('alert');
    expect(banner.textContent).toBe('Account suspended due to fraud warning. Please contact support.');
    expect(banner.className).toContain('pp-banner--danger');
    expect(action().disabled).toBe(true);
    expect((prompt() as HTMLTextAreaElement).closest('fieldset')?.disabled).toBe(true);
  });

  it('locks an unverified account and says why', async () => {
    await open('/text-to-pic', signedIn({ emailVerified: false }), 'Text to Pic');
    expect(screen.getByTestId('account-banner').textContent).toContain('Please verify email before use.');
    expect(action().disabled).toBe(true);
  });

  it('says when the tool runs in demo mode and how to run the real one', async () => {
    await open(
      '/text-to-pic',
      signedIn({}, { 'GET /api/tools': { body: { tools: [{ id: 'text-to-pic', provider: 'demo', demo: true }] } } }),
      'Text to Pic',
    );
    const notice = await screen.findByTestId('demo-notice');
    expect(notice.textContent).toContain('REPLICATE_API_TOKEN');
  });
});

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
    [[imageFile('a.png'), imageFile('b.png')], 'Please choose one image at a time.'],
    [[imageFile('empty.png', 'image/png', 0)], 'This file is empty. Please choose another image.'],
  ])('say why a file is refused (%#)', async (files, text) => {
    await open('/background-remover', signedIn(), 'Background Remover');
    chooseFiles(...files);
    await screen.findByText(text);
    expect(screen.queryByRole('img', { name: /^Your image/ })).toBeNull();
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

  it('Colorizer: Processing..., the data URL, the result, and a new image clears it', async () => {
    const pending = deferred<FakeReply>();
    const { api } = await open(
      '/colorizer',
      signedIn({ tokens: 20 }, { 'POST /api/colorize-image': () => pending.promise }),
      'Colorizer',
    );
    await chooseImage(imageFile('old.jpg', 'image/jpeg'));
    fireEvent.click(action());
    await waitFor(() => expect(action().textContent).toBe('Processing...'));
    const body = sent(api, 'POST /api/colorize-image');
    expect(body.image).toMatch(/^data:image\/jpeg;base64,/);
    expect(body.userId).toBe('user-1');
    await act(async () => pending.resolve(imagesAnswer(fileUrl(5), 14)));
    const result = await screen.findByRole('img', { name: 'Colorized photo of old.jpg' });
    expect(result.getAttribute('src')).toBe(fileUrl(5));
    expect(balanceText()).toContain('14 tokens');

    await chooseImage(imageFile('other.png'));
    expect(screen.queryByRole('img', { name: /^Colorized photo/ })).toBeNull();
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
    [{ status: 413, body: { success: false, error: 'image: must be at most 10 MB' } }, 'image: must be at most 10 MB'],
  ])('show the spec’s failure message, or what to change (%#)', async (reply, text) => {
    await open('/face-fixer', signedIn({}, { 'POST /api/fix-face': reply }), 'Fix a Face');
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe(text), AFTER_A_RETRY);
    expect(screen.queryByTestId('tool-message-detail')).toBeNull();
  });

  it('Fix a Face: the server’s reason goes under the spec’s message, and leaves with it', async () => {
    const noFace = 'No face found in this image. Please try a photo with a clear, front-facing face.';
    await open(
      '/face-fixer',
      signedIn({}, { 'POST /api/fix-face': { status: 502, body: { success: false, error: noFace, refunded: true } } }),
      'Fix a Face',
    );
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Face fixing failed. Please try again.'));
    expect(screen.getByTestId('tool-message-detail').textContent).toBe(noFace);
    expect(action().getAttribute('aria-describedby')).toContain(screen.getByTestId('tool-message-detail').id);
    fireEvent.click(screen.getByRole('button', { name: 'Remove image' }));
    expect(screen.queryByTestId('tool-message-detail')).toBeNull();
  });

  it('Image Upscaler: the scale goes out and titles the result; the hint states the input limits', async () => {
    const { api } = await open(
      '/image-upscaler',
      signedIn({}, { 'POST /api/upscale-image': imagesAnswer(fileUrl(1), 19) }),
      'Image Upscaler',
    );
    expect(
      screen.getByText(
        'One PNG, JPG or WEBP image. Largest input: 2048 x 2048 px for 2x, 1024 x 1024 px for 4x, 680 x 680 px for 6x.',
      ),
    ).toBeTruthy();
    await chooseImage();
    fireEvent.click(screen.getByRole('radio', { name: '4x' }));
    fireEvent.click(action());
    await screen.findByRole('heading', { name: 'Upscaled (4x)' });
    expect(sent(api, 'POST /api/upscale-image').scale).toBe(4);
    fireEvent.click(screen.getByRole('radio', { name: '6x' }));
    expect(screen.getByRole('heading', { name: 'Upscaled (4x)' })).toBeTruthy();
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

  it('Image Analyzer: keywords as percents, colours with hex, name and share', async () => {
    await open(
      '/image-analyzer',
      signedIn(
        {},
        {
          'POST /api/analyze-image': {
            body: {
              success: true,
              keywords: [
                { keyword: 'portrait', score: 0.934 },
                { keyword: 'flag', score: 0.5 },
              ],
              colors: [{ hex: '#13111a', name: 'dark', percentage: 58.6 }],
              jobId: 'job-1',
              balance: 19,
            },
          },
        },
      ),
      'Image Analyzer',
    );
    await chooseImage();
    fireEvent.click(action());
    const keywords = await screen.findByTestId('keywords');
    expect(keywords.textContent).toBe('portrait93%flag50%');
    expect(screen.getByTestId('colors').textContent).toBe('dark#13111A58.6%');
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
  });
});

describe('Metamorphose', () => {
  it('checks sign-in, then tokens, then the reference image', async () => {
    const { api } = await open('/metamorphose', signedOutRoutes(), 'Metamorphose');
    typePrompt('me on the moon');
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Please log in to generate images'));
    await nowHolds(api, 8);
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Not enough tokens available'));
    await nowHolds(api, 9);
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Please upload a reference image'));
    expect(api.callsTo('POST /api/metamorphose-image')).toHaveLength(0);
  });

  it('refuses files over 5 MB with the spec’s message', async () => {
    await open('/metamorphose', signedIn(), 'Metamorphose');
    expect(screen.getByText('PNG, JPG and WEBP up to 5MB.')).toBeTruthy();
    chooseFiles(imageFile('big.png', 'image/png', 5 * 1024 * 1024 + 1));
    await screen.findByText('File size must be less than 5MB');
    await chooseImage(imageFile('exact.png', 'image/png', 5 * 1024 * 1024));
  });

  it('sends the face without its data-URL prefix, the size of the ratio, 1 image at quality 33', async () => {
    const { api } = await open(
      '/metamorphose',
      signedIn({ emailVerified: false }, { 'POST /api/metamorphose-image': imagesAnswer([fileUrl(1)], 11) }),
      'Metamorphose',
    );
    // Metamorphose does not check verification in the client: the server answers for it.
    expect(action().disabled).toBe(false);
    expect(screen.getByRole('combobox', { name: 'Number of images' }).textContent).toBe('1');
    expect(screen.getByRole('combobox', { name: 'Quality' }).textContent).toBe('Standard');
    await chooseImage();
    typePrompt('me on the moon');
    fireEvent.change(screen.getByRole('combobox', { name: 'Aspect ratio' }), { target: { value: '9:16' } });
    fireEvent.click(action());
    await screen.findByRole('img', { name: 'Metamorphose portrait 1: me on the moon' });
    const body = sent(api, 'POST /api/metamorphose-image');
    expect(body).toMatchObject({
      prompt: 'me on the moon',
      num_outputs: 1,
      output_quality: 33,
      width: 768,
      height: 1344,
    });
    expect(String(body.main_face_image)).not.toContain('data:');
    expect(String(body.main_face_image).length).toBeGreaterThan(10);
  });

  it.each([
    [
      { status: 403, body: { success: false, error: 'Please verify email before use.' } },
      'Please verify email before use.',
    ],
    [{ status: 200, body: { success: false } }, 'Generation failed'],
    ['network-error' as const, 'Please try using a smaller image or try generating again.'],
  ])('says what went wrong (%#)', async (reply, text) => {
    await open('/metamorphose', signedIn({}, { 'POST /api/metamorphose-image': reply }), 'Metamorphose');
    await chooseImage();
    typePrompt('me on the moon');
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe(text), AFTER_A_RETRY);
  });
});

describe('Background Swap', () => {
  it('checks sign-in, then 25 tokens per image, then the image', async () => {
    const { api } = await open('/background-swap', signedOutRoutes(), 'Background Swap');
    typePrompt('a beach', 'New Background Description');
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Please log in to swap backgrounds'));
    await nowHolds(api, 20);
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Not enough tokens available'));
  });

  it('asks for the image, prices the count, and sends the image without its prefix', async () => {
    const { api } = await open(
      '/background-swap',
      signedIn({ tokens: 100 }, { 'POST /api/background-swap': imagesAnswer([fileUrl(1), fileUrl(2)], 50) }),
      'Background Swap',
    );
    typePrompt('a beach', 'New Background Description');
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Please upload an image'));
    fireEvent.click(screen.getByRole('radio', { name: '2' }));
    expect(action().textContent).toBe('Generate50 tokens');
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(screen.getAllByRole('img', { name: /^New background \d: a beach$/ })).toHaveLength(2));
    const body = sent(api, 'POST /api/background-swap');
    expect(body).toMatchObject({ prompt: 'a beach', num_outputs: 2, userId: 'user-1' });
    expect(String(body.image)).not.toContain('data:');
    expect(balanceText()).toContain('50 tokens');
  });

  it('refuses files over 5 MB', async () => {
    await open('/background-swap', signedIn(), 'Background Swap');
    chooseFiles(imageFile('big.jpg', 'image/jpeg', 6 * 1024 * 1024));
    await screen.findByText('File size must be less than 5MB');
  });
});

describe('Text Lab', () => {
  it('asks a visitor to log in', async () => {
    await open('/text-lab', signedOutRoutes(), 'Text Lab');
    typePrompt('OPEN');
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Please log in to use Text Lab.'));
  });

  it('says “Not enough tokens” below 15 and redirects at 0', async () => {
    const { router } = await open('/text-lab', signedIn({ tokens: 14 }), 'Text Lab');
    typePrompt('OPEN');
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Not enough tokens. Please purchase more.'));
    expect(router.state.location.pathname).toBe('/text-lab');
  });

  it('sends Text Assist (default Auto) at a fixed price', async () => {
    const { api } = await open(
      '/text-lab',
      signedIn({}, { 'POST /api/text-lab': imagesAnswer([fileUrl(1)], 5) }),
      'Text Lab',
    );
    expect((screen.getByRole('radio', { name: 'Auto' }) as HTMLInputElement).checked).toBe(true);
    expect(action().textContent).toBe('Generate15 tokens');
    typePrompt('"OPEN" neon sign');
    fireEvent.click(action());
    await screen.findByRole('img', { name: 'Text Lab design 1: "OPEN" neon sign' });
    expect(sent(api, 'POST /api/text-lab')).toEqual({
      prompt: '"OPEN" neon sign',
      aspectRatio: '1:1',
      textAssist: 'Auto',
      userId: 'user-1',
    });
  });

  it('shows the answer’s error, or “Failed to generate image” when the server cannot be reached', async () => {
    await open('/text-lab', signedIn({}, { 'POST /api/text-lab': 'network-error' }), 'Text Lab');
    typePrompt('OPEN');
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Failed to generate image'), AFTER_A_RETRY);
  });
});

describe('at the per-user job cap', () => {
  const atCap = {
    status: 429,
    body: { success: false, error: TOOL_MESSAGES.tooManyJobs(10), retryAfterSeconds: 15 },
  };

  it('Text to Pic says in words why the call was refused, and does not send it again', async () => {
    const { api } = await open('/text-to-pic', signedIn({}, { 'POST /api/generate-image': atCap }), 'Text to Pic');
    typePrompt('one more fox');
    fireEvent.click(action());
    await waitFor(() =>
      expect(toolMessage()).toBe('You already have 10 jobs in progress. Please wait for one to finish.'),
    );
    expect(api.callsTo('POST /api/generate-image')).toHaveLength(1);
    expect(balanceText()).toContain('20 tokens');
    expect(action().disabled).toBe(false);
  });

  it('a single-image tool shows the same words instead of its failure message', async () => {
    await open('/background-remover', signedIn({}, { 'POST /api/remove-background': atCap }), 'Background Remover');
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() =>
      expect(toolMessage()).toBe('You already have 10 jobs in progress. Please wait for one to finish.'),
    );
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
