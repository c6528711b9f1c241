import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { deferred, type FakeReply } from '../../../test-support/fake-api';
import { chooseImage, fileUrl, imageFile, imagesAnswer } from '../../../test-support/tool-fixtures';
import { action, balanceText, open, sent, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';

setUpToolPageTests();

describe('Colorizer', () => {
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
});
