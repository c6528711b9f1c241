import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ImageIcon } from 'lucide-react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { IMAGE_DOWNLOAD_NAMES } from '../../../../contract/download-names';
import {
  DEFAULT_OUTPUT_FORMAT,
  type ImageResultToolId,
  OUTPUT_MESSAGES,
  type OutputFormat,
  withFormatExtension,
} from '../../../../contract/output-files';
import { fileUrl } from '../../../test-support/tool-fixtures';
import { backgroundRemover } from '../background-remover/tool';
import { colorizer } from '../colorizer/tool';
import { carriedFileOptions, resultFormats } from '../download-formats';
import { imageAnalyzer } from '../image-analyzer/tool';
import { textToPic } from '../text-to-pic/tool';
import type { JobState } from '../use-tool-runner';
import { progressText } from './progress';
import { ImageResults, ResultPanel } from './ResultPanel';

describe('a running job', () => {
  it('says where a waiting job stands in the line', () => {
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 1 })).toBe(
      'Queued: yours is next…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 2 })).toBe(
      'Queued: 1 job ahead of yours…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 1000 })).toBe(
      'Queued: 999 jobs ahead of yours…',
    );
    // The server counts 1,000 ahead at most.
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 1001 })).toBe(
      'Queued: at least 1,000 jobs ahead of yours…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 5 })).toBe(
      'Queued: 4 jobs ahead of yours…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'queued' })).toBe(
      'Queued: waiting for a free worker…',
    );
    expect(progressText({ phase: 'running', startedAt: 0, status: 'running', queuePosition: null })).toBe(
      'Working on it: this can take a minute…',
    );
    // Held by a worker, waiting for its model on the local engine: queued as well.
    expect(progressText({ phase: 'running', startedAt: 0, status: 'running', queuePosition: 1 })).toBe(
      'Queued: yours is next…',
    );
  });

  it('shows the place in line in the result panel, announced as a status', () => {
    render(
      <ResultPanel
        title="Result"
        job={{ phase: 'running', startedAt: 0, status: 'queued', queuePosition: 3 }}
        icon={ImageIcon}
        emptyText="Your result appears here"
      />,
    );
    expect(screen.getByRole('status').textContent).toContain('Queued: 2 jobs ahead of yours…');
  });
});

describe('the elapsed time', () => {
  // The clock stands still: a render that comes a second late on a busy machine reads the same "now"
  // the job's start was counted back from.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts minutes and seconds since the job was asked for', () => {
    render(
      <ResultPanel
        title="Result"
        job={{ phase: 'running', status: 'running', startedAt: Date.now() - 83_000 }}
        icon={ImageIcon}
        emptyText="Your result appears here"
      />,
    );
    expect(screen.getByRole('status').textContent).toContain('1:23 elapsed');
    expect(screen.getByRole('status').textContent).not.toContain('usually');
  });

  it('says how long the tool usually takes when the server knows', () => {
    render(
      <ResultPanel
        title="Result"
        job={{ phase: 'running', status: 'running', startedAt: Date.now() - 5_000, typicalSeconds: 95 }}
        icon={ImageIcon}
        emptyText="Your result appears here"
      />,
    );
    expect(screen.getByRole('status').textContent).toContain('0:05 elapsed · usually about 1:35');
  });

  it('says the time left in a batch’s words when the server has counted the jobs ahead', () => {
    const now = Date.now();
    render(
      <ResultPanel
        title="Result"
        job={{
          phase: 'running',
          status: 'queued',
          queuePosition: 2,
          startedAt: now - 5_000,
          typicalSeconds: 33,
          doneBy: now + 95_000,
        }}
        icon={ImageIcon}
        emptyText="Your result appears here"
      />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Queued: 1 job ahead of yours… 0:05 elapsed · About 2 min left',
    );
  });

  it('counts seconds under a minute, as a batch does', () => {
    const now = Date.now();
    render(
      <ResultPanel
        title="Result"
        job={{ phase: 'running', status: 'running', startedAt: now - 12_000, typicalSeconds: 30, doneBy: now + 40_000 }}
        icon={ImageIcon}
        emptyText="Your result appears here"
      />,
    );
    expect(screen.getByRole('status').textContent).toBe(
      'Working on it: this can take a minute… 0:12 elapsed · About 40 s left',
    );
  });
});

describe('a result that arrives (issue 54)', () => {
  const running: JobState = { phase: 'running', status: 'running', startedAt: Date.now() };
  const done: JobState = {
    phase: 'done',
    images: [],
    analysis: null,
    request: {},
    before: null,
    demo: false,
    jobId: null,
  };
  /** The result panel at `top` px in a window 844 px tall, `reducedMotion` asked or not. */
  function atPhoneHeight(top: number, reducedMotion = false) {
    vi.stubGlobal('innerHeight', 844);
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: reducedMotion && query.includes('reduce') }));
    const scrolls: ScrollIntoViewOptions[] = [];
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockReturnValue({ top } as DOMRect);
    HTMLElement.prototype.scrollIntoView = (options?: boolean | ScrollIntoViewOptions) => {
      if (typeof options === 'object') scrolls.push(options);
    };
    return scrolls;
  }
  const panel = (job: JobState) => (
    <ResultPanel title="Upscaled (2x)" job={job} icon={ImageIcon} emptyText="Your result appears here">
      <p>The result</p>
    </ResultPanel>
  );
  const heading = () => screen.getByRole('heading', { name: 'Upscaled (2x)' });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    Reflect.deleteProperty(HTMLElement.prototype, 'scrollIntoView');
  });

  it('is brought up from below the form on a phone, and its heading takes the focus', () => {
    // Under the form at 390 px: the panel's heading in the lower half, its result below the fold.
    const scrolls = atPhoneHeight(500);
    const { rerender } = render(panel(running));
    rerender(panel(done));
    expect(scrolls).toEqual([{ behavior: 'smooth', block: 'start' }]);
    expect(document.activeElement).toBe(heading());
    expect(heading().tabIndex).toBe(-1);
  });

  it('is brought up again once its picture has loaded: until then the page may end too soon below it', async () => {
    const scrolls = atPhoneHeight(500);
    const withPicture = (job: JobState) => (
      <ResultPanel title="Upscaled (2x)" job={job} icon={ImageIcon} emptyText="Your result appears here">
        <img src="/api/files/result" alt="Result" />
      </ResultPanel>
    );
    // Not loaded yet when the result shows.
    vi.spyOn(HTMLImageElement.prototype, 'complete', 'get').mockReturnValue(false);
    const { rerender } = render(withPicture(running));
    rerender(withPicture(done));
    const picture = screen.getByRole('img', { name: 'Result' });
    expect(scrolls).toHaveLength(1);
    fireEvent.load(picture);
    await waitFor(() => expect(scrolls).toHaveLength(2));
  });

  it('is not moved smoothly when the user asks for reduced motion', () => {
    const scrolls = atPhoneHeight(500, true);
    const { rerender } = render(panel(running));
    rerender(panel(done));
    expect(scrolls).toEqual([{ behavior: 'auto', block: 'start' }]);
  });

  it('stays where it is beside the form on a wide screen, and still takes the focus', () => {
    const scrolls = atPhoneHeight(120);
    const { rerender } = render(panel(running));
    rerender(panel(done));
    expect(scrolls).toEqual([]);
    expect(document.activeElement).toBe(heading());
  });

  it('shown again when the page opens, is neither scrolled to nor focused', () => {
    const scrolls = atPhoneHeight(600);
    const { rerender } = render(panel({ phase: 'idle' }));
    rerender(panel(done));
    expect(scrolls).toEqual([]);
    expect(document.activeElement).toBe(document.body);
  });
});

describe('the format beside Download (issue 41)', () => {
  const stored = fileUrl(3);
  const clicks: string[] = [];
  const formatChoice = (name = 'Format') => screen.getByRole('combobox', { name }) as HTMLSelectElement;
  const shown = (name?: string) => [...formatChoice(name).options].map((option) => option.text);
  /** Renders `images` with a fetch that answers `status`, and records the names the browser saves. */
  function renderResults(
    images: string[],
    formats: OutputFormat[],
    status = 200,
    fileName = (n: number) => `generated-image-${n}.webp`,
  ) {
    clicks.length = 0;
    const fetch = vi.fn(async (_url: string) => ({
      ok: status === 200,
      status,
      blob: async () => new Blob(['image']),
      json: async () => ({ error: OUTPUT_MESSAGES.jpegTransparentUpload }),
    }));
    vi.stubGlobal('fetch', fetch);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this.download);
    });
    render(<ImageResults images={images} fileName={fileName} alt={(n) => `Result ${n}`} formats={formats} />);
    return fetch;
  }
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('lists the stored format first, then the others; a transparent cut-out has no JPEG', () => {
    const settings = { image: 'data:image/png;base64,AA' };
    expect(resultFormats(textToPic, { ...settings, outputFormat: 'webp' })).toEqual(['webp', 'png', 'jpeg', 'avif']);
    expect(resultFormats(colorizer, settings)).toEqual(['webp', 'png', 'jpeg', 'avif']);
    // An API call that asked for another format stores that one.
    expect(resultFormats(colorizer, { ...settings, outputFormat: 'avif' })).toEqual(['avif', 'png', 'jpeg', 'webp']);
    expect(resultFormats(backgroundRemover, settings)).toEqual(['png', 'webp', 'avif']);
    expect(resultFormats(backgroundRemover, { ...settings, background: 'transparent', crop: 2 })).toEqual([
      'png',
      'webp',
      'avif',
    ]);
    expect(resultFormats(backgroundRemover, { ...settings, background: '#ffffff', size: 2000 })).toEqual([
      'png',
      'jpeg',
      'webp',
      'avif',
    ]);
    expect(resultFormats(imageAnalyzer, settings)).toEqual([]);
  });

  it('carries a job’s format and quality into the next call, but no JPEG to a transparent cut-out', () => {
    expect(carriedFileOptions(colorizer, { outputFormat: 'jpeg', outputQuality: 80 }, {})).toEqual({
      outputFormat: 'jpeg',
      outputQuality: 80,
    });
    expect(carriedFileOptions(colorizer, { outputFormat: 'png', outputQuality: 80 }, {})).toEqual({
      outputFormat: 'png',
    });
    expect(carriedFileOptions(colorizer, { outputFormat: 'gif' }, {})).toEqual({});
    expect(carriedFileOptions(backgroundRemover, { outputFormat: 'jpeg' }, {})).toEqual({});
    expect(carriedFileOptions(backgroundRemover, { outputFormat: 'jpeg' }, { background: '#ffffff' })).toEqual({
      outputFormat: 'jpeg',
    });
    expect(carriedFileOptions(imageAnalyzer, { outputFormat: 'png' }, {})).toEqual({});
  });

  it('keeps every tool’s spec name for its default format', () => {
    for (const [tool, name] of Object.entries(IMAGE_DOWNLOAD_NAMES))
      expect(withFormatExtension(name(1), DEFAULT_OUTPUT_FORMAT[tool as ImageResultToolId])).toBe(name(1));
  });

  it('downloads the stored file under the spec’s name, and another format converted, with its extension', async () => {
    const fetch = renderResults([stored], ['webp', 'png', 'jpeg', 'avif']);
    expect(shown()).toEqual(['WebP', 'PNG', 'JPEG', 'AVIF']);
    expect(formatChoice().value).toBe('webp');
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await waitFor(() => expect(clicks).toEqual(['generated-image-1.webp']));
    expect(fetch).toHaveBeenLastCalledWith(stored, expect.anything());

    for (const [format, name] of [
      ['jpeg', 'generated-image-1.jpg'],
      ['png', 'generated-image-1.png'],
      ['avif', 'generated-image-1.avif'],
    ] as const) {
      fireEvent.change(formatChoice(), { target: { value: format } });
      fireEvent.click(screen.getByRole('button', { name: 'Download' }));
      await waitFor(() => expect(clicks.at(-1)).toBe(name));
      expect(fetch).toHaveBeenLastCalledWith(`${stored}?format=${format}`, expect.anything());
    }
  });

  it('gives each of several images its own choice, named by its number', async () => {
    const fetch = renderResults([fileUrl(1), fileUrl(2)], ['webp', 'png', 'jpeg', 'avif']);
    fireEvent.change(formatChoice('Format of image 2'), { target: { value: 'png' } });
    expect(formatChoice('Format of image 1').value).toBe('webp');
    fireEvent.click(screen.getByRole('button', { name: 'Download image 2' }));
    await waitFor(() => expect(clicks).toEqual(['generated-image-2.png']));
    expect(fetch).toHaveBeenLastCalledWith(`${fileUrl(2)}?format=png`, expect.anything());
  });

  it('says the server’s reason when it refuses a conversion', async () => {
    renderResults([stored], ['png', 'jpeg', 'webp', 'avif'], 400, () => 'upscaled-image.webp');
    fireEvent.change(formatChoice(), { target: { value: 'jpeg' } });
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await screen.findByText(OUTPUT_MESSAGES.jpegTransparentUpload);
    expect(clicks).toEqual([]);
  });

  it('offers no choice for an image that is not a stored file', () => {
    renderResults(['data:image/png;base64,AA'], ['png', 'jpeg', 'webp', 'avif']);
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
    expect(screen.queryByRole('combobox')).toBeNull();
  });
});
