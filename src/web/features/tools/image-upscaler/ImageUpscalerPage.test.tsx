import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseImage, fileUrl, imagesAnswer } from '../../../test-support/tool-fixtures';
import { action, open, sent, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';

setUpToolPageTests();

describe('Image Upscaler', () => {
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
});
