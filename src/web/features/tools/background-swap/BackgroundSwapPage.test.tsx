import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedOutRoutes } from '../../../test-support/fake-api';
import {
  chooseFiles,
  chooseImage,
  fileUrl,
  imageFile,
  imagesAnswer,
  toolsInfoAnswer,
} from '../../../test-support/tool-fixtures';
import {
  action,
  balanceText,
  nowHolds,
  open,
  sent,
  setUpToolPageTests,
  signedIn,
  toolMessage,
  typePrompt,
} from '../../../test-support/tool-page-harness';

setUpToolPageTests();

describe('Background Swap', () => {
  it.each([
    [{ emailVerified: false }, 'Please verify email before use.'],
    [{ isDispute: true }, 'Account suspended due to open dispute. Please contact support.'],
    [{ isFraudulent: true }, 'Account suspended due to fraud warning. Please contact support.'],
  ])('tells a flagged account in the form, before anything is filled in (%#)', async (flags, text) => {
    await open('/background-swap', signedIn(flags), 'Background Swap');
    const note = screen.getByTestId('form-account-note');
    expect(note.textContent).toBe(`${text} Generating stays unavailable until then.`);
    expect(action().getAttribute('aria-describedby')).toContain(note.id);
  });

  it('has no such note for a verified account', async () => {
    await open('/background-swap', signedIn(), 'Background Swap');
    expect(screen.queryByTestId('form-account-note')).toBeNull();
  });

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

  it('on the local engine: a free preview (a real cut-out on labelled backgrounds), even at a balance of 0, nothing to send on', async () => {
    const { api } = await open(
      '/background-swap',
      signedIn(
        { tokens: 0 },
        {
          'GET /api/tools': toolsInfoAnswer('background-swap', 'local', 25, true),
          'POST /api/background-swap': imagesAnswer([fileUrl(1), fileUrl(2)], 0, true),
        },
      ),
      'Background Swap',
    );
    const notice = await screen.findByTestId('demo-notice');
    expect(notice.textContent).toBe('Free preview: a real cut-out on labelled sample backgrounds. It takes no tokens.');
    expect(screen.getByTestId('cost-chip').textContent).toBe('Free preview');
    typePrompt('a beach', 'New Background Description');
    fireEvent.click(screen.getByRole('radio', { name: '2' }));
    expect(action().textContent).toBe('GenerateFree preview');
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(screen.getAllByRole('img', { name: /^New background \d: a beach$/ })).toHaveLength(2));
    expect(sent(api, 'POST /api/background-swap')).toMatchObject({ num_outputs: 2 });
    expect(screen.queryByRole('button', { name: /^Send to/ })).toBeNull();
    expect(balanceText()).toContain('0 tokens');
  });

  it('refuses files over 5 MB', async () => {
    await open('/background-swap', signedIn(), 'Background Swap');
    chooseFiles(imageFile('big.jpg', 'image/jpeg', 6 * 1024 * 1024));
    await screen.findByText('File size must be less than 5MB');
  });
});
