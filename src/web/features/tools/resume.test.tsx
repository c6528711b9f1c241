// Results survive leaving and reloading: a tool page opens on the user's running or latest job of
// its tool, and a job left running is followed by the app shell, which says when it finishes.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderApp, setViewportWidth } from '../../app/test-utils';
import { forgetWatchedJobs } from '../../lib/jobs/job-watch';
import { creation, creationList, storedImage } from '../../test-support/creation-fixtures';
import { deferred, installFakeApi, session } from '../../test-support/fake-api';
import { chooseImage } from '../../test-support/tool-fixtures';
import { action, open, setUpToolPageTests, signedIn } from '../../test-support/tool-page-harness';
import { RESUMED_IMAGE_NAME } from './ToolWorkspace';

setUpToolPageTests();
beforeEach(() => forgetWatchedJobs());

/** For waits across a poll of the job (1.5 s): the cap only catches a hang, within the test's own 20 s. */
const SLOW = { timeout: 15_000 };

describe('a tool page opens on the latest job of its tool', () => {
  it('shows the last result again after a reload, asking only for this tool’s newest job', async () => {
    const { api } = await open(
      '/background-remover',
      signedIn({}, { 'GET /api/creations': creationList(creation()) }),
      'Background Remover',
    );
    const result = await screen.findByRole('img', { name: 'Cut-out' });
    expect(result.getAttribute('src')).toBe(storedImage(2).url);
    expect(api.callsTo('GET /api/creations')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Download' })).toBeTruthy();
  });

  it('follows a job still running, with its elapsed time, to its result', async () => {
    const running = creation({ status: 'running', output: null, outputs: [], createdAt: new Date().toISOString() });
    const done = { ...creation(), queuePosition: null };
    await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(running),
          'GET /api/jobs/job-7': [{ body: { ...running, queuePosition: null } }, { body: done }],
        },
      ),
      'Background Remover',
    );
    const progress = await screen.findByTestId('job-progress');
    expect(progress.textContent).toMatch(/Working on it.*\d+:\d\d elapsed/);
    expect(action().textContent).toBe('Processing...');
    // Its input is the page's image again, and the result's alt text names it.
    await screen.findByRole('img', { name: `Cut-out of ${RESUMED_IMAGE_NAME}` }, SLOW);
  });

  it('shows the running job’s input again as the page’s image (issue 38 item 8)', async () => {
    const running = creation({ status: 'running', output: null, outputs: [], createdAt: new Date().toISOString() });
    await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(running),
          'GET /api/jobs/job-7': { body: { ...running, queuePosition: null } },
        },
      ),
      'Background Remover',
    );
    const preview = await screen.findByRole('img', { name: `Your image: ${RESUMED_IMAGE_NAME}` });
    expect(preview.getAttribute('src')).toBe(storedImage(1).url);
    expect(screen.getByTestId('image-facts').textContent).toBe('');
  });

  it('shows the running input on a page with a prompt too (Background Swap)', async () => {
    const running = creation({
      tool: 'background-swap',
      settings: { prompt: 'a quiet beach at dawn', num_outputs: 1 },
      status: 'queued',
      output: null,
      outputs: [],
      createdAt: new Date().toISOString(),
    });
    await open(
      '/background-swap',
      signedIn(
        { tokens: 100 },
        {
          'GET /api/creations': creationList(running),
          'GET /api/jobs/job-7': { body: { ...running, queuePosition: 1 } },
        },
      ),
      'Background Swap',
    );
    const preview = await screen.findByRole('img', { name: `Your image: ${RESUMED_IMAGE_NAME}` });
    expect(preview.getAttribute('src')).toBe(storedImage(1).url);
    // And its prompt, as it was sent.
    const prompt = screen.getByRole('textbox', { name: 'New Background Description' }) as HTMLTextAreaElement;
    expect(prompt.value).toBe('a quiet beach at dawn');
  });

  it('starts empty when the newest job failed', async () => {
    await open(
      '/background-remover',
      signedIn({}, { 'GET /api/creations': creationList(creation({ status: 'failed', outputs: [], output: null })) }),
      'Background Remover',
    );
    await waitFor(() => expect(screen.queryByRole('img', { name: 'Cut-out' })).toBeNull());
    expect(screen.getByText(/appears here/)).toBeTruthy();
  });
});

describe('a job left running', () => {
  it('keeps running; a toast with a link says when it finishes elsewhere in the app', async () => {
    const answer = deferred<{ body: unknown }>();
    const running = { ...creation({ status: 'running', output: null, outputs: [] }), queuePosition: null };
    const { router } = await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'POST /api/remove-background': {
            status: 202,
            body: {
              success: false,
              pending: true,
              status: 'running',
              queuePosition: null,
              jobId: 'job-7',
              balance: 18,
            },
          },
          'GET /api/jobs/job-7': () => answer.promise,
        },
      ),
      'Background Remover',
    );
    await chooseImage();
    fireEvent.click(action());
    await screen.findByTestId('job-progress');
    await act(() => router.navigate('/tokens'));
    await screen.findByRole('heading', { level: 1, name: 'Tokens' });
    expect(screen.queryByTestId('job-toast')).toBeNull();
    answer.resolve({ body: { ...running, status: 'succeeded', output: [storedImage(2).url] } });
    const toast = await screen.findByTestId('job-toast', {}, SLOW);
    expect(toast.textContent).toContain('Your Background Remover result is ready.');
    fireEvent.click(within(toast).getByRole('link', { name: 'View it' }));
    await screen.findByRole('heading', { level: 1, name: 'Background Remover' });
    expect(screen.queryByTestId('job-toast')).toBeNull();
  });
});

describe('a page left while its call is still out', () => {
  it('hands the job the answer names to the shell, which toasts how it ended', async () => {
    const answer = deferred<{ body: unknown }>();
    const { router } = await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'POST /api/remove-background': () => answer.promise,
          'GET /api/jobs/job-7': { body: { ...creation(), queuePosition: null } },
        },
      ),
      'Background Remover',
    );
    await chooseImage();
    fireEvent.click(action());
    await act(() => router.navigate('/tokens'));
    await screen.findByRole('heading', { level: 1, name: 'Tokens' });
    answer.resolve({ body: { success: true, output: storedImage(2).url, jobId: 'job-7', balance: 18 } });
    const toast = await screen.findByTestId('job-toast', {}, SLOW);
    expect(toast.textContent).toContain('Your Background Remover result is ready.');
  });
});

describe('on a phone', () => {
  it('shows the progress by the button too, where the eye is (the result panel is below the form)', async () => {
    const running = creation({ status: 'queued', output: null, outputs: [], createdAt: new Date().toISOString() });
    setViewportWidth(390);
    await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(running),
          'GET /api/jobs/job-7': { body: { ...running, queuePosition: 2 } },
        },
      ),
      'Background Remover',
    );
    const form = action().closest('form') as HTMLElement;
    await waitFor(() => expect(within(form).getByText(/Queued/).textContent).toMatch(/elapsed/));
  });
});

describe('an image chosen while the page still loads', () => {
  it('stays, and the latest job found afterwards does not take its place', async () => {
    const sessionAnswer = deferred<{ body: unknown }>();
    const routes = signedIn({}, { 'GET /api/creations': creationList(creation()) });
    installFakeApi({ ...routes, 'GET /api/auth/get-session': () => sessionAnswer.promise });
    renderApp('/background-remover');
    await screen.findByRole('heading', { level: 1, name: 'Background Remover' });
    await chooseImage();
    sessionAnswer.resolve({ body: session() });
    await waitFor(() => expect(screen.getByTestId('token-balance').getAttribute('aria-busy')).toBeNull());
    // Give a late answer about the latest job its chance to (wrongly) show: the fake API answers in
    // microtasks, so one turn of the event loop lets any such answer arrive and render.
    await act(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(screen.getByRole('img', { name: /^Your image: / })).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Cut-out' })).toBeNull();
  });
});
