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

  it('Image Upscaler to a print size: the result and the print before the run, enough pixels or the refusal; the print goes out', async () => {
    const { api } = await open(
      '/image-upscaler',
      signedIn({}, { 'POST /api/upscale-image': imagesAnswer(fileUrl(1), 19) }),
      'Image Upscaler',
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Print' }));
    expect(screen.getByTestId('upscale-summary').textContent).toBe(
      'A4 at 300 DPI: 2480 x 3508 px, 21.0 x 29.7 cm (8.27 x 11.69 in), turned as the photo is.',
    );
    await chooseImage();
    await measure(2048, 1536);
    expect(screen.getByTestId('upscale-summary').textContent).toBe(
      'Result: 3508 x 2480 px, 29.7 x 21.0 cm (11.69 x 8.27 in) at 300 DPI. Enough pixels for A4 at 300 DPI: 2x, then resized, a little cropped at the top and bottom.',
    );
    fireEvent.change(screen.getByLabelText('Print size'), { target: { value: 'a3' } });
    expect(
      screen.getByText(
        /A3 at 300 DPI \(4961 x 3508 px\) is 17\.4 megapixels, more than the 16\.8 megapixels the upscaler makes\. The most it makes of A3 is 294 DPI\./,
      ),
    ).toBeTruthy();
    expect((action() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('DPI'), { target: { value: '240' } });
    fireEvent.click(action());
    await screen.findByRole('heading', { name: 'Upscaled for A3 at 240 DPI' });
    expect(sent(api, 'POST /api/upscale-image')).toMatchObject({ printSize: 'a3', dpi: 240 });
    expect(sent(api, 'POST /api/upscale-image').scale).toBeUndefined();
  });

  it('Image Upscaler to a width: the height from the photo, and a photo too small for it within 6x says so', async () => {
    const { api } = await open(
      '/image-upscaler',
      signedIn({}, { 'POST /api/upscale-image': imagesAnswer(fileUrl(1), 19) }),
      'Image Upscaler',
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Size' }));
    await chooseImage();
    await measure(400, 300);
    fireEvent.change(screen.getByLabelText('Width (px)'), { target: { value: '3000' } });
    expect(screen.getByText(/a width of 3000 px needs 7.5x, more than the 6x the upscaler makes/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Width (px)'), { target: { value: '2000' } });
    expect(screen.getByTestId('upscale-summary').textContent).toBe('Result: 2000 x 1500 px: 6x, then resized.');
    fireEvent.click(action());
    await screen.findByRole('heading', { name: 'Upscaled to 2000 px wide' });
    expect(sent(api, 'POST /api/upscale-image')).toMatchObject({ targetWidth: 2000 });
  });
});

describe('Image Upscaler with the photos phones take (decision 084)', () => {
  it('a 12 MP photo has the pixels for A4: resized, no upscale, at an upscale’s price; an 8 MP one for US Letter is reduced for 2x; no input-limit hint or refusal', async () => {
    const { api } = await open(
      '/image-upscaler',
      signedIn({}, { 'POST /api/upscale-image': imagesAnswer(fileUrl(1), 19) }),
      'Image Upscaler',
    );
    fireEvent.click(screen.getByRole('radio', { name: 'Print' }));
    // A print takes any photo the server does: the scales' input limits are not the hint.
    expect(screen.getByText('One PNG, JPG or WEBP image.')).toBeTruthy();
    await chooseImage();
    await measure(4000, 3000);
    expect(screen.getByTestId('upscale-summary').textContent).toBe(
      'Result: 3508 x 2480 px, 29.7 x 21.0 cm (11.69 x 8.27 in) at 300 DPI. Enough pixels for A4 at 300 DPI: resized, no upscale needed, a little cropped at the top and bottom. Priced as one upscale.',
    );
    expect((action() as HTMLButtonElement).disabled).toBe(false);
    await measure(2448, 3264);
    fireEvent.change(screen.getByLabelText('Print size'), { target: { value: 'letter' } });
    expect(screen.getByTestId('upscale-summary').textContent).toBe(
      'Result: 2550 x 3300 px, 21.6 x 27.9 cm (8.5 x 11 in) at 300 DPI. Enough pixels for US Letter at 300 DPI: reduced to 1275 x 1650 px, 2x, then resized, a little cropped at the top and bottom.',
    );
    expect((action() as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(action());
    await screen.findByRole('heading', { name: 'Upscaled for US Letter at 300 DPI' });
    expect(sent(api, 'POST /api/upscale-image')).toMatchObject({ printSize: 'letter', dpi: 300 });
  });
});

/** The preview reports `width` x `height` (happy-dom loads no image). */
async function measure(width: number, height: number) {
  const preview = await screen.findByRole('img', { name: /^Your image: / });
  Object.defineProperty(preview, 'naturalWidth', { value: width, configurable: true });
  Object.defineProperty(preview, 'naturalHeight', { value: height, configurable: true });
  fireEvent.load(preview);
}
