// Compare and zoom on every image-to-image result; cut-outs previewed on a chosen backdrop.
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseImage, fileUrl, imagesAnswer } from '../../test-support/tool-fixtures';
import { action, open, setUpToolPageTests, signedIn } from '../../test-support/tool-page-harness';
import { WEB_TOOLS } from './registry';

setUpToolPageTests();

describe('before and after', () => {
  it('is on for the upscalers, Fix a Face, Colorizer, Background Remover and Background Swap only', () => {
    const compared = WEB_TOOLS.filter((tool) => tool.result.kind === 'images' && tool.result.compare).map(
      (tool) => tool.id,
    );
    expect(compared).toEqual([
      'colorizer',
      'background-remover',
      'creative-upscaler',
      'fix-a-face',
      'background-swap',
      'image-upscaler',
    ]);
  });

  it('Colorizer: a slider over the result shows the input up to its position, and 1:1 zoom shows real pixels', async () => {
    await open('/colorizer', signedIn({}, { 'POST /api/colorize-image': imagesAnswer(fileUrl(1), 18) }), 'Colorizer');
    await chooseImage();
    fireEvent.click(action());
    const slider = await screen.findByRole('slider', { name: 'Before and after' });
    expect(slider.getAttribute('aria-valuetext')).toBe('50% before, 50% after');
    const view = screen.getByTestId('compare-view');
    const [after, before] = Array.from(view.querySelectorAll('img'));
    expect(after?.getAttribute('src')).toBe(fileUrl(1));
    expect(before?.getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    fireEvent.change(slider, { target: { value: '80' } });
    expect(slider.getAttribute('aria-valuetext')).toBe('80% before, 20% after');
    expect(view.parentElement?.style.getPropertyValue('--pp-compare-position')).toBe('80%');

    fireEvent.click(screen.getByRole('button', { name: 'Zoom 1:1' }));
    expect(screen.getByTestId('zoom-view').querySelector('img')?.getAttribute('src')).toBe(fileUrl(1));
    expect(screen.queryByRole('slider')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Fit' }));
    expect(screen.getByRole('slider')).toBeTruthy();
  });

  it('Background Remover: the cut-out shows on a checkerboard, white, black or a chosen colour', async () => {
    await open(
      '/background-remover',
      signedIn({}, { 'POST /api/remove-background': imagesAnswer(fileUrl(1), 18) }),
      'Background Remover',
    );
    await chooseImage();
    fireEvent.click(action());
    const view = (await screen.findByTestId('compare-view')).parentElement as HTMLElement;
    expect(view.dataset.backdrop).toBe('checkerboard');
    fireEvent.click(screen.getByRole('radio', { name: 'Black' }));
    expect(view.dataset.backdrop).toBe('black');
    expect(screen.queryByLabelText('Backdrop colour')).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: 'Colour' }));
    fireEvent.change(screen.getByLabelText('Backdrop colour'), { target: { value: '#ff0000' } });
    expect(view.style.getPropertyValue('--pp-backdrop-colour')).toBe('#ff0000');
  });

  it('Text to Pic, not image-to-image, shows its images without a slider', async () => {
    await open(
      '/text-to-pic',
      signedIn({}, { 'POST /api/generate-image': imagesAnswer([fileUrl(1)], 19) }),
      'Text to Pic',
    );
    fireEvent.change(screen.getByRole('textbox', { name: 'Prompt' }), { target: { value: 'a fox' } });
    fireEvent.click(action());
    await screen.findByRole('button', { name: 'Download' });
    expect(screen.queryByRole('slider')).toBeNull();
  });
});
