import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { setViewportWidth } from '../../../app/test-utils';
import { chooseImage } from '../../../test-support/tool-fixtures';
import { action, open, setUpToolPageTests, signedIn } from '../../../test-support/tool-page-harness';

setUpToolPageTests();

/** The page after analysing an image whose answer is this. */
async function analysed(width = 1280) {
  setViewportWidth(width);
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
            colors: [
              { hex: '#13111a', name: 'dark', percentage: 58.6 },
              { hex: '#ff8000', name: 'Orange', percentage: 41.4 },
            ],
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
  await screen.findByTestId('keywords');
}

/** What the page hands the browser to save: the file's name and bytes. */
function savedFiles() {
  const files: { name: string; blob: Blob }[] = [];
  const blobs = new Map<string, Blob>();
  vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const href = `blob:test-${blobs.size}`;
    blobs.set(href, blob as Blob);
    return href;
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href);
    if (blob) files.push({ name: this.download, blob });
  });
  return files;
}

describe('Image Analyzer', () => {
  it('Image Analyzer: keywords as percents, colours with hex, name and share', async () => {
    await analysed();
    expect(screen.getByTestId('keywords').textContent).toBe('portrait93%flag50%');
    expect(screen.getByTestId('colors').textContent).toBe('dark#13111A58.6%Orange#FF800041.4%');
    expect(screen.queryByRole('button', { name: /Download/ })).toBeNull();
  });

  it.each([390, 1280])('copies the keywords in one click and says "Copied" (%i px)', async (width) => {
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    await analysed(width);
    fireEvent.click(screen.getByRole('button', { name: 'Copy keywords' }));
    expect(await screen.findByRole('button', { name: 'Copied' })).toBeTruthy();
    expect(writeText).toHaveBeenCalledWith('portrait, flag');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy keywords' })).toBeTruthy(), {
      timeout: 15_000, // the "Copied" label's own timer, on a busy machine
    });
  });

  it('says so when the browser refuses to copy', async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      clipboard: { writeText: async () => Promise.reject(new Error('denied')) },
    });
    await analysed();
    fireEvent.click(screen.getByRole('button', { name: 'Copy keywords' }));
    expect(await screen.findByRole('button', { name: 'Copy failed' })).toBeTruthy();
  });

  it.each([390, 1280])('exports the palette as CSS variables, JSON and Adobe ASE files (%i px)', async (width) => {
    await analysed(width);
    const files = savedFiles();
    const exports = screen.getByRole('group', { name: 'Export palette' });
    for (const name of ['CSS variables', 'JSON', 'Adobe ASE']) {
      fireEvent.click(
        Array.from(exports.querySelectorAll('button')).find((b) => b.textContent === name) as HTMLElement,
      );
    }
    expect(files.map((f) => f.name)).toEqual(['palette.css', 'palette.json', 'palette.ase']);
    const [css, json, ase] = files;
    expect(await css?.blob.text()).toContain('--palette-orange: #ff8000;');
    expect(JSON.parse((await json?.blob.text()) ?? '')).toEqual({
      colors: [
        { hex: '#13111a', name: 'dark', percentage: 58.6 },
        { hex: '#ff8000', name: 'Orange', percentage: 41.4 },
      ],
    });
    const bytes = new Uint8Array((await ase?.blob.arrayBuffer()) ?? new ArrayBuffer(0));
    expect(String.fromCharCode(...bytes.slice(0, 4))).toBe('ASEF');
    expect(new DataView(bytes.buffer).getUint32(8)).toBe(2);
  });
});
