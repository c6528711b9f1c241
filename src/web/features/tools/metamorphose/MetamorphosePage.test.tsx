import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedOutRoutes } from '../../../test-support/fake-api';
import { chooseFiles, chooseImage, fileUrl, imageFile, imagesAnswer } from '../../../test-support/tool-fixtures';
import {
  AFTER_A_RETRY,
  action,
  nowHolds,
  open,
  sent,
  setUpToolPageTests,
  signedIn,
  toolMessage,
  typePrompt,
} from '../../../test-support/tool-page-harness';

setUpToolPageTests();

describe('Metamorphose', () => {
  it('tells an unverified account in the form, before anything is filled in', async () => {
    await open('/metamorphose', signedIn({ emailVerified: false }), 'Metamorphose');
    expect(screen.getByTestId('form-account-note').textContent).toBe(
      'Please verify email before use. Generating stays unavailable until then.',
    );
  });

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
