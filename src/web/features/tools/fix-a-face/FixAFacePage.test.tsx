import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseImage } from '../../../test-support/tool-fixtures';
import { action, open, setUpToolPageTests, signedIn, toolMessage } from '../../../test-support/tool-page-harness';

setUpToolPageTests();

describe('Fix a Face', () => {
  it('Fix a Face: the server’s reason goes under the spec’s message, and leaves with it', async () => {
    const noFace = "We couldn't find a face in this photo. Try a photo where the face is clear and faces the camera.";
    await open(
      '/face-fixer',
      signedIn({}, { 'POST /api/fix-face': { status: 502, body: { success: false, error: noFace, refunded: true } } }),
      'Fix a Face',
    );
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Face fixing failed. Please try again.'));
    expect(screen.getByTestId('tool-message-detail').textContent).toBe(noFace);
    expect(action().getAttribute('aria-describedby')).toContain(screen.getByTestId('tool-message-detail').id);
    fireEvent.click(screen.getByRole('button', { name: 'Remove image' }));
    expect(screen.queryByTestId('tool-message-detail')).toBeNull();
  });
});
