// Issue 38 item 3: the pages state the limits beside their fields and check them before anything is
// sent, in sentences about the user's action: prompts (blank, too long, with a live counter), image
// files (size) and images (pixels, shape). The server's own refusals are src/contract/input-limits.ts.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseFiles, chooseImage, imageFile, imagesAnswer } from '../../test-support/tool-fixtures';
import {
  action,
  open,
  prompt,
  setUpToolPageTests,
  signedIn,
  toolMessage,
  typePrompt,
} from '../../test-support/tool-page-harness';

setUpToolPageTests();

const PROMPT_TOOLS = [
  ['/text-to-pic', 'Text to Pic', 'POST /api/generate-image', 'Prompt'],
  ['/metamorphose', 'Metamorphose', 'POST /api/metamorphose-image', 'Prompt'],
  ['/text-lab', 'Text Lab', 'POST /api/text-lab', 'Prompt'],
  ['/background-swap', 'Background Swap', 'POST /api/background-swap', 'New Background Description'],
] as const;

const problem = () => screen.getByTestId('prompt-problem').textContent;
const counter = () => screen.getByTestId('prompt-counter');

describe.each(PROMPT_TOOLS)('%s’s prompt', (route, heading, call, label) => {
  it('refuses a prompt of spaces beside the field, sending nothing', async () => {
    const { api } = await open(route, signedIn({ tokens: 1000 }, { [call]: imagesAnswer(['/x'], 990) }), heading);
    if (route === '/metamorphose' || route === '/background-swap') await chooseImage();
    typePrompt('   \n  ', label);
    fireEvent.click(action());
    await waitFor(() => expect(problem()).toBe('Please describe the image you want.'));
    expect(prompt(label).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(prompt(label));
    expect(toolMessage()).toBe('');
    expect(api.callsTo(call)).toHaveLength(0);
    // The next edit clears it.
    typePrompt('a red fox', label);
    expect(problem()).toBe('');
  });

  it('counts characters live against the limit and refuses one over it before sending', async () => {
    const { api } = await open(route, signedIn({ tokens: 1000 }, { [call]: imagesAnswer(['/x'], 990) }), heading);
    expect(counter().textContent).toContain('0 / 2,000');
    typePrompt('x'.repeat(1840), label);
    expect(counter().textContent).toContain('1,840 / 2,000');
    expect(counter().dataset.over).toBe('false');
    expect(problem()).toBe('');
    typePrompt(`${'x'.repeat(2143)}  `, label);
    expect(counter().textContent).toContain('2,143 / 2,000');
    expect(counter().dataset.over).toBe('true');
    // Said at once, before any click; announced once as one steady sentence, not at every key.
    expect(problem()).toBe('Your description is 2,143 characters; the limit is 2,000.');
    expect(screen.getByTestId('prompt-problem').getAttribute('aria-live')).toBe('off');
    const announcement = screen.getByTestId('prompt-over-announcement');
    expect(announcement.getAttribute('aria-live')).toBe('polite');
    expect(announcement.textContent).toBe('Your description is over the 2,000-character limit.');
    typePrompt('x'.repeat(2150), label);
    expect(problem()).toBe('Your description is 2,150 characters; the limit is 2,000.');
    expect(announcement.textContent).toBe('Your description is over the 2,000-character limit.');
    fireEvent.click(action());
    expect(api.callsTo(call)).toHaveLength(0);
  });
});

describe('a prompt within its limits', () => {
  it('goes out as typed, at exactly 2,000 characters', async () => {
    const { api } = await open(
      '/text-to-pic',
      signedIn({}, { 'POST /api/generate-image': imagesAnswer(['/api/files/x'], 19) }),
      'Text to Pic',
    );
    typePrompt('y'.repeat(2000));
    fireEvent.click(action());
    await waitFor(() => expect(api.callsTo('POST /api/generate-image')).toHaveLength(1));
    expect(problem()).toBe('');
  });
});

const MB = 1024 * 1024;

/** The preview reports `width` x `height` (happy-dom loads no image). */
async function measure(width: number, height: number) {
  const preview = await screen.findByRole('img', { name: /^Your image: / });
  Object.defineProperty(preview, 'naturalWidth', { value: width, configurable: true });
  Object.defineProperty(preview, 'naturalHeight', { value: height, configurable: true });
  fireEvent.load(preview);
}

describe('image files and sizes, checked before sending', () => {
  it('state the limits beside the drop zone', async () => {
    await open('/background-remover', signedIn(), 'Background Remover');
    expect(screen.getByTestId('image-limits').textContent).toBe(
      'Up to 10 MB and 40 megapixels; the longest side at most 10 times the shortest.',
    );
  });

  it('refuse a 42.9 MB file at once, without reading or uploading it', async () => {
    const { api } = await open('/colorizer', signedIn(), 'Colorizer');
    chooseFiles(imageFile('huge.png', 'image/png', 45_000_000));
    await screen.findByText('This image is 42.9 MB; the limit is 10 MB. Please choose a smaller file.');
    expect(screen.queryByRole('img', { name: /^Your image/ })).toBeNull();
    expect(action().disabled).toBe(true);
    expect(api.callsTo('POST /api/colorize-image')).toHaveLength(0);
  });

  it('take a file of exactly 10 MB', async () => {
    await open('/colorizer', signedIn(), 'Colorizer');
    await chooseImage(imageFile('big.png', 'image/png', 10 * MB));
  });

  it('keep the spec’s own message for the 5 MB tools', async () => {
    await open('/metamorphose', signedIn(), 'Metamorphose');
    chooseFiles(imageFile('face.png', 'image/png', 5 * MB + 1));
    await screen.findByText('File size must be less than 5MB');
    expect(screen.getByTestId('image-limits').textContent).toBe(
      'Up to 40 megapixels; the longest side at most 10 times the shortest.',
    );
  });

  it('refuse a 10000 x 100 image as the server would, before anything is sent', async () => {
    const { api } = await open('/background-remover', signedIn(), 'Background Remover');
    await chooseImage();
    await measure(10000, 100);
    await screen.findByText(
      'This image is 10,000 x 100 px; its longest side can be at most 10 times its shortest. Please crop it and try again.',
    );
    expect(action().disabled).toBe(true);
    fireEvent.click(action());
    expect(api.callsTo('POST /api/remove-background')).toHaveLength(0);
  });

  it('refuse an image over 40 megapixels and one too thin', async () => {
    await open('/image-analyzer', signedIn(), 'Image Analyzer');
    await chooseImage();
    await measure(9000, 5000);
    await screen.findByText('This image is 9,000 x 5,000 px, more than 40 megapixels. Please choose a smaller image.');
    await measure(300, 4);
    await screen.findByText(/its shortest side must be at least 8 px/);
  });

  it('take an image within the limits', async () => {
    await open('/image-analyzer', signedIn(), 'Image Analyzer');
    await chooseImage();
    await measure(2000, 100); // 20:1, the analyzer's limit
    await waitFor(() => expect(action().disabled).toBe(false));
    expect(screen.queryByText(/^This image is/)).toBeNull();
  });
});
