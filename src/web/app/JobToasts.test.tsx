// "Result ready" notices on a page loaded (or reloaded) while a job runs (issue 38): the shell asks
// the server for the user's jobs in progress and says when each finishes; a tool page that shows its
// own running job is left to show the end itself.
import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESUMED_IMAGE_NAME } from '../features/tools/ToolWorkspace';
import { forgetWatchedJobs } from '../lib/jobs/job-watch';
import { creation, creationList, storedImage } from '../test-support/creation-fixtures';
import { deferred } from '../test-support/fake-api';
import { open, setUpToolPageTests, signedIn } from '../test-support/tool-page-harness';
import { WATCH_POLL_MS } from './JobToasts';

setUpToolPageTests();
// The notices' poll runs on a fake interval, moved on by the test: its 1.5 s between looks is not
// what these tests check. Every other timer (the page's own follow, the queries' waits) stays real.
beforeEach(() => {
  forgetWatchedJobs();
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
});
afterEach(() => vi.useRealTimers());

/** Lets the notices' poll look `times` times, each answer settled. */
async function pollsPass(times: number) {
  for (let look = 0; look < times; look++) await act(() => vi.advanceTimersByTimeAsync(WATCH_POLL_MS));
}

const running = (id: string, tool: 'colorizer' | 'background-remover') => ({
  ...creation({ id, tool, status: 'running', output: null, outputs: [], createdAt: new Date().toISOString() }),
  queuePosition: null,
});

describe('a page loaded while a job runs', () => {
  it('says when the job finishes, with a link to its tool', async () => {
    const job = running('job-9', 'colorizer');
    const { api } = await open(
      '/creations',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(),
          'GET /api/creations/usage': { status: 404 },
          'GET /api/jobs': { body: { jobs: [job], next: null } },
          'GET /api/jobs/job-9': [
            { body: job },
            { body: { ...job, status: 'succeeded', output: [storedImage(2).url] } },
          ],
        },
      ),
      'My Creations',
    );
    await pollsPass(2);
    const toast = await screen.findByTestId('job-toast');
    expect(toast.textContent).toContain('Your Colorizer result is ready.');
    expect(within(toast).getByRole('link', { name: 'View it' }).getAttribute('href')).toBe('/colorizer');
    expect(api.callsTo('GET /api/jobs').map((call) => call.search)).toEqual(['?status=active']);
  });

  it('says when it failed, with its reason', async () => {
    const job = running('job-9', 'colorizer');
    await open(
      '/tokens',
      signedIn(
        {},
        {
          'GET /api/purchases': { body: { purchases: [] } },
          'GET /api/jobs': { body: { jobs: [job], next: null } },
          'GET /api/jobs/job-9': { body: { ...job, status: 'failed', error: 'The model was busy.' } },
        },
      ),
      'Tokens',
    );
    await pollsPass(1);
    const toast = await screen.findByTestId('job-toast');
    expect(toast.textContent).toContain('Your Colorizer job failed; its tokens were given back.');
    expect(within(toast).getByTestId('job-toast-reason').textContent).toBe('The model was busy.');
  });

  it('leaves a job to the tool page that shows it: its result, and no notice', async () => {
    const job = running('job-7', 'background-remover');
    const done = { ...creation(), queuePosition: null };
    // The server's list of jobs in progress answers after the page has taken its job up.
    const active = deferred<{ body: unknown }>();
    await open(
      '/background-remover',
      signedIn(
        {},
        {
          'GET /api/creations': creationList(creation({ ...job, status: 'running' })),
          'GET /api/jobs': () => active.promise,
          'GET /api/jobs/job-7': [{ body: job }, { body: job }, { body: done }],
        },
      ),
      'Background Remover',
    );
    await screen.findByTestId('job-progress');
    active.resolve({ body: { jobs: [job], next: null } });
    await screen.findByRole('img', { name: `Cut-out of ${RESUMED_IMAGE_NAME}` }, { timeout: 15_000 });
    await pollsPass(2);
    expect(screen.queryByTestId('job-toast')).toBeNull();
  });
});
