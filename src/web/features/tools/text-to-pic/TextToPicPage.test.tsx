import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { deferred, type FakeReply, signedOutRoutes } from '../../../test-support/fake-api';
import { fileUrl, imagesAnswer, toolsInfoAnswer } from '../../../test-support/tool-fixtures';
import {
  AFTER_A_RETRY,
  action,
  balanceText,
  open,
  prompt,
  sent,
  setUpToolPageTests,
  signedIn,
  toolMessage,
  typePrompt,
} from '../../../test-support/tool-page-harness';
import { JOB_POLL_MS } from '../tool-api';

setUpToolPageTests();

describe('Text to Pic', () => {
  it('keeps the prompt and quality while the user buys tokens at a balance of 0', async () => {
    const { router } = await open('/text-to-pic', signedIn({ tokens: 0 }), 'Text to Pic');
    typePrompt('a red fox in snow');
    fireEvent.click(screen.getByRole('radio', { name: 'Low' }));
    fireEvent.click(action());
    await waitFor(() => expect(router.state.location.pathname).toBe('/tokens'));
    expect((await screen.findByTestId('tool-draft-notice')).textContent).toContain('Text to Pic needs 1 token');
    fireEvent.click(screen.getByRole('link', { name: 'Back to Text to Pic' }));
    await waitFor(() => expect((prompt() as HTMLTextAreaElement).value).toBe('a red fox in snow'));
    expect((screen.getByRole('radio', { name: 'Low' }) as HTMLInputElement).checked).toBe(true);
  });

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

  it('falls back to the largest count the balance covers after spending, on the radio and the button', async () => {
    await open(
      '/text-to-pic',
      signedIn({ tokens: 5 }, { 'POST /api/generate-image': imagesAnswer([1, 2, 3, 4].map(fileUrl), 1) }),
      'Text to Pic',
    );
    const count = (n: number) => screen.getByRole('radio', { name: String(n) }) as HTMLInputElement;
    typePrompt('four foxes');
    fireEvent.click(count(4));
    expect(action().textContent).toBe('Generate4 tokens');
    fireEvent.click(action());
    await waitFor(() => expect(balanceText()).toContain('1 token'));
    expect(count(4).disabled).toBe(true);
    expect(count(4).checked).toBe(false);
    expect(count(1).checked).toBe(true);
    expect(action().textContent).toBe('Generate1 token');
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

  it('does not send an empty prompt, and says so beside it', async () => {
    const { api } = await open('/text-to-pic', signedIn(), 'Text to Pic');
    fireEvent.click(action());
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(prompt().getAttribute('aria-required')).toBe('true');
    expect(screen.getByTestId('prompt-problem').textContent).toBe('Please describe the image you want.');
    expect(api.callsTo('POST /api/generate-image')).toHaveLength(0);
  });

  it.each([
    [
      { status: 502, body: { success: false, error: 'Failed to generate image', refunded: true, balance: 20 } },
      'Failed to generate image',
    ],
    [
      { status: 400, body: { success: false, error: 'Your description is 2,143 characters; the limit is 2,000.' } },
      'Your description is 2,143 characters; the limit is 2,000.',
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

  it('says before the click, beside the button, that the demo gives a free preview, and the button says so instead of a price', async () => {
    await open(
      '/text-to-pic',
      signedIn({}, { 'GET /api/tools': toolsInfoAnswer('text-to-pic', 'demo', 1) }),
      'Text to Pic',
    );
    const notice = await screen.findByTestId('demo-notice');
    expect(notice.textContent).toBe('Free preview: a labelled sample, not AI. It takes no tokens.');
    expect(notice.nextElementSibling?.contains(action())).toBe(true);
    expect(action().textContent).toBe('GenerateFree preview');
    expect(document.body.textContent).not.toContain('REPLICATE_API_TOKEN');
  });

  it('runs a free preview on an empty balance, any number of images, instead of sending the user to /tokens', async () => {
    const { api, router } = await open(
      '/text-to-pic',
      signedIn(
        { tokens: 0 },
        {
          'GET /api/tools': toolsInfoAnswer('text-to-pic', 'demo', 1),
          'POST /api/generate-image': imagesAnswer([fileUrl(1), fileUrl(2)], 0, true),
        },
      ),
      'Text to Pic',
    );
    await screen.findByTestId('demo-notice');
    typePrompt('a red fox');
    const four = screen.getByRole('radio', { name: '4' }) as HTMLInputElement;
    expect(four.disabled).toBe(false);
    fireEvent.click(four);
    fireEvent.click(action());
    await waitFor(() => expect(api.callsTo('POST /api/generate-image')).toHaveLength(1));
    expect(sent(api, 'POST /api/generate-image').numOutputs).toBe(4);
    await screen.findByRole('button', { name: 'Download image 1' });
    expect(router.state.location.pathname).toBe('/text-to-pic');
  });
});
