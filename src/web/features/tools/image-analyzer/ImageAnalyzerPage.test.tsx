import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { chooseImage } from '../../../test-support/tool-fixtures';
import { action, open, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';

setUpToolPageTests();

describe('Image Analyzer', () => {
  it('Image Analyzer: keywords as percents, colours with hex, name and share', async () => {
    await open(
      '/image-analyzer',
      signedIn(
        {},
        {
          'POST /api/analyze-image': {
            body: {
              success: true,
              keywords: [
                { keyword: 'portrait', score: 0.934 },
                { keyword: 'flag', score: 0.5 },
              ],
              colors: [{ hex: '#13111a', name: 'dark', percentage: 58.6 }],
              jobId: 'job-1',
              balance: 19,
            },
          },
        },
      ),
      'Image Analyzer',
    );
    await chooseImage();
    fireEvent.click(action());
    const keywords = await screen.findByTestId('keywords');
    expect(keywords.textContent).toBe('portrait93%flag50%');
    expect(screen.getByTestId('colors').textContent).toBe('dark#13111A58.6%');
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
  });
});
