// The GPS opt-in (issue 41): off by default (the server then removes the photo's location), sent as
// `keepLocation: true` once chosen, and remembered in this browser for the next page.
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { chooseImage, fileUrl, imagesAnswer } from '../../../test-support/tool-fixtures';
import { action, open, sent, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';

setUpToolPageTests();
afterEach(() => window.localStorage.clear());

const CALL = 'POST /api/colorize-image';
const keep = () => screen.getByRole('checkbox', { name: 'Keep where the photo was taken' }) as HTMLInputElement;

describe('Keep where the photo was taken', () => {
  it('is off by default and sends nothing; once chosen it sends keepLocation and is remembered', async () => {
    const { api } = await open(
      '/colorizer',
      signedIn({ tokens: 20 }, { [CALL]: imagesAnswer(fileUrl(1), 18) }),
      'Colorizer',
    );
    expect(keep().checked).toBe(false);
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(api.callsTo(CALL)).toHaveLength(1));
    expect(sent(api, CALL, 0)).not.toHaveProperty('keepLocation');
    await screen.findByRole('button', { name: 'Download' });

    fireEvent.click(keep());
    expect(screen.getByText('Results keep the photo’s GPS location.')).toBeTruthy();
    fireEvent.click(action());
    await waitFor(() => expect(api.callsTo(CALL)).toHaveLength(2));
    expect(sent(api, CALL, 1)).toMatchObject({ keepLocation: true });
    expect(window.localStorage.getItem('pp.keepLocation')).toBe('1');
  });

  it('is not offered where the result is no image (Image Analyzer)', async () => {
    await open('/image-analyzer', signedIn(), 'Image Analyzer');
    expect(screen.queryByRole('checkbox', { name: 'Keep where the photo was taken' })).toBeNull();
  });
});
