import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedOutRoutes } from '../../../test-support/fake-api';
import { fileUrl, imagesAnswer } from '../../../test-support/tool-fixtures';
import {
  AFTER_A_RETRY,
  action,
  open,
  sent,
  setUpToolPageTests,
  signedIn,
  toolMessage,
  typePrompt,
} from '../../../test-support/tool-page-harness';

setUpToolPageTests();

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
