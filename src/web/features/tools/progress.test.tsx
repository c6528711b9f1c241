// Progress that tells the truth (issue 35, items 4 and 5): "Sending your request…" lasts until the
// server has accepted the job (the call asks for its 202 at once); a job waiting for a slot or, held
// by a worker, for its model says "Queued" with its place, and the time it still needs in a batch's
// words (issue 54); the job is followed with reads that wait for its finish, and its result, when it
// comes, takes the focus; a failed job's own words reach the user, on
// the page and in the toast of a job the page left; a server error while following is no failure.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { JobDetail, ToolPending } from '../../../contract/tool-responses';
import { forgetWatchedJobs } from '../../lib/jobs/job-watch';
import { creation, creationList } from '../../test-support/creation-fixtures';
import { deferred, type FakeReply } from '../../test-support/fake-api';
import { chooseImage } from '../../test-support/tool-fixtures';
import { action, open, setUpToolPageTests, signedIn, toolMessage } from '../../test-support/tool-page-harness';

setUpToolPageTests();
beforeEach(() => forgetWatchedJobs());

const SLOW = { timeout: 5000 };

const pending = (overrides: Partial<ToolPending> = {}): { status: number; body: ToolPending } => ({
  status: 202,
  body: {
    success: false,
    pending: true,
    jobId: 'job-7',
    status: 'queued',
    queuePosition: null,
    typicalSeconds: null,
    secondsLeft: null,
    balance: 18,
    charged: 2,
    demo: false,
    ...overrides,
  },
});

const detail = (overrides: Partial<JobDetail> = {}): { body: JobDetail } => {
  const {
    inputs: _inputs,
    outputs: _outputs,
    settings: _settings,
    refunded: _refunded,
    shareUrl: _share,
    ...job
  } = creation({ status: 'running', output: null, outputs: [], finishedAt: null });
  return {
    body: { ...job, queuePosition: null, typicalSeconds: null, secondsLeft: null, ...overrides } as JobDetail,
  };
};

const progress = () => screen.getByTestId('job-progress').textContent ?? '';

describe('a job on a busy server', () => {
  it('"Sending your request…" lasts until the server accepts the job, which it is asked to say at once', async () => {
    const answer = deferred<FakeReply>();
    const { api } = await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'POST /api/remove-background': () => answer.promise,
          'GET /api/jobs/job-7': detail({ status: 'queued', queuePosition: 2, typicalSeconds: 30, secondsLeft: 90 }),
        },
      ),
      'Background Remover',
    );
    await chooseImage();
    fireEvent.click(action());
    await screen.findByTestId('job-progress');
    expect(progress()).toMatch(/^Sending your request…/);
    // Answered as soon as the job is charged and queued, not after a wait for its result.
    expect(api.callsTo('POST /api/remove-background')[0]?.headers.prefer).toBe('wait=0');

    await act(async () =>
      answer.resolve(pending({ status: 'queued', queuePosition: 2, typicalSeconds: 30, secondsLeft: 90 })),
    );
    await waitFor(() =>
      expect(progress()).toMatch(/^Queued: 1 job ahead of yours… \d+:\d\d elapsed · About 2 min left$/),
    );
    // Followed with reads that wait on the server for the job's finish.
    await waitFor(() => expect(api.callsTo('GET /api/jobs/job-7').length).toBeGreaterThan(0), SLOW);
    expect(api.callsTo('GET /api/jobs/job-7')[0]?.headers.prefer).toBe('wait=2');
  });

  it('a job a worker holds while it waits for its model is queued, with its place', async () => {
    await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'POST /api/remove-background': pending({
            status: 'running',
            queuePosition: 1,
            typicalSeconds: 33,
            secondsLeft: 66,
          }),
          'GET /api/jobs/job-7': [
            detail({ status: 'running', queuePosition: 1, typicalSeconds: 33, secondsLeft: 65 }),
            detail({ status: 'running', queuePosition: null, typicalSeconds: 33, secondsLeft: 33 }),
          ],
        },
      ),
      'Background Remover',
    );
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(progress()).toMatch(/^Queued: yours is next… \d+:\d\d elapsed · About 2 min left$/));
    expect(action().textContent).toBe('Processing...');
    // Its model is free: it runs.
    await waitFor(
      () => expect(progress()).toMatch(/^Working on it: this can take a minute… \d+:\d\d elapsed · About \d+ s left$/),
      SLOW,
    );
  });

  it('a server error while following the job is not its failure: the page asks again', async () => {
    await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'POST /api/remove-background': pending({ status: 'running' }),
          'GET /api/jobs/job-7': [{ status: 503, body: { error: 'Service unavailable' } }, { body: creation() }],
        },
      ),
      'Background Remover',
    );
    await chooseImage();
    fireEvent.click(action());
    await screen.findByRole('img', { name: 'Cut-out of photo.png' }, SLOW);
    expect(screen.queryByTestId('tool-message')?.textContent ?? '').toBe('');
  });

  it('the result that comes takes the focus from the disabled form, on its heading', async () => {
    const finished = deferred<FakeReply>();
    await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'POST /api/remove-background': pending({
            status: 'queued',
            queuePosition: 3,
            typicalSeconds: 20,
            secondsLeft: 40,
          }),
          'GET /api/jobs/job-7': () => finished.promise,
        },
      ),
      'Background Remover',
    );
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() =>
      expect(progress()).toMatch(/^Queued: 2 jobs ahead of yours… \d+:\d\d elapsed · About \d+ s left$/),
    );
    finished.resolve({ body: creation() });
    await screen.findByRole('img', { name: 'Cut-out of photo.png' }, SLOW);
    const focused = document.activeElement as HTMLElement;
    expect(focused.tagName).toBe('H2');
    expect(focused.closest('section')?.contains(screen.getByRole('img', { name: 'Cut-out of photo.png' }))).toBe(true);
  });
});

describe('a failed job’s own words', () => {
  const noFace = "We couldn't find a face in this photo. Try a photo where the face is clear and faces the camera.";

  it('show under the spec’s message when the page followed the job to its end', async () => {
    await open(
      '/face-fixer',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'POST /api/fix-face': pending({ status: 'running' }),
          'GET /api/jobs/job-7': detail({ tool: 'fix-a-face', status: 'failed', error: noFace }),
        },
      ),
      'Fix a Face',
    );
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe('Face fixing failed. Please try again.'), SLOW);
    expect(screen.getByTestId('tool-message-detail').textContent).toBe(noFace);
  });

  it('are the message when the server refuses before charging (422)', async () => {
    await open(
      '/face-fixer',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'POST /api/fix-face': { status: 422, body: { success: false, error: noFace } },
        },
      ),
      'Fix a Face',
    );
    await chooseImage();
    fireEvent.click(action());
    await waitFor(() => expect(toolMessage()).toBe(noFace));
  });

  it('reach the toast of a job the page left before it failed', async () => {
    const answer = deferred<FakeReply>();
    const { router } = await open(
      '/face-fixer',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'POST /api/fix-face': pending({ status: 'running' }),
          'GET /api/jobs/job-7': () => answer.promise,
        },
      ),
      'Fix a Face',
    );
    await chooseImage();
    fireEvent.click(action());
    await screen.findByTestId('job-progress');
    await act(() => router.navigate('/tokens'));
    await screen.findByRole('heading', { level: 1, name: 'Tokens' });
    answer.resolve(detail({ tool: 'fix-a-face', status: 'failed', error: noFace, output: null }));
    const toast = await screen.findByTestId('job-toast', {}, SLOW);
    expect(toast.textContent).toContain('Your Fix a Face job failed; its tokens were given back.');
    expect(within(toast).getByTestId('job-toast-reason').textContent).toBe(noFace);
    expect(within(toast).getByRole('link', { name: 'Open Fix a Face' })).toBeTruthy();
  });
});
