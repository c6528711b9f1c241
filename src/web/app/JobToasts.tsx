import { CircleAlert, CircleCheck, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import type { JobDetail, JobList } from '../../contract/tool-responses';
import { TOOLS } from '../../contract/tools';
import { getJson } from '../lib/api';
import { isFollowedOnPage, unwatchJob, useWatchedJobs, type WatchedJob, watchActiveJobs } from '../lib/jobs/job-watch';
import { Link } from '../lib/router';
import { useAuth } from '../lib/session/auth-context';

/** How often a job a page left is asked about (as often as a page follows its own). */
export const WATCH_POLL_MS = 1_500;

/** `reason`: a failed job's own words ("We couldn't find a face…"), when the server gave them. */
type Toast = WatchedJob & { succeeded: boolean; reason: string | null };

/** The user's jobs in progress, as GET /api/jobs?status=active answers them. */
export const ACTIVE_JOBS_PATH = '/api/jobs?status=active';

/**
 * Follows the jobs a tool page left while they ran, and those the server says are still running when
 * a page is loaded (or reloaded), and says when one finishes, with a link back to its tool (which
 * opens on that job). A job a page shows itself is left to it; one the server no longer knows
 * (deleted) is dropped quietly.
 */
export function JobToasts() {
  const watched = useWatchedJobs();
  const { status, refreshProfile } = useAuth();
  const [toasts, setToasts] = useState<Toast[]>([]);

  // Once per page load and sign-in: the jobs that were running before this page was.
  useEffect(() => {
    if (status !== 'signed-in') return;
    let live = true;
    getJson<JobList>(ACTIVE_JOBS_PATH).then(
      (answer) => {
        if (!live || !answer.ok || !Array.isArray(answer.data?.jobs)) return;
        watchActiveJobs(
          answer.data.jobs.flatMap((job) => {
            const tool = TOOLS.find((entry) => entry.id === job.tool);
            return tool ? [{ id: job.id, title: tool.title, route: tool.route }] : [];
          }),
        );
      },
      () => {}, // offline: the jobs this tab started are still watched
    );
    return () => {
      live = false;
    };
  }, [status]);

  useEffect(() => {
    if (watched.length === 0) return;
    let live = true;
    const timer = setInterval(() => {
      for (const job of watched) {
        if (isFollowedOnPage(job.id)) continue; // the page shows its end itself
        getJson<JobDetail>(`/api/jobs/${encodeURIComponent(job.id)}`).then(
          (answer) => {
            if (!live) return;
            const status = answer.data?.status;
            if (answer.ok && (status === 'queued' || status === 'running')) return;
            unwatchJob(job.id);
            if (!answer.ok) return;
            void refreshProfile(); // a failed job's tokens came back
            const succeeded = status === 'succeeded';
            const reason = succeeded ? null : (answer.data?.error ?? null);
            setToasts((current) => [...current, { ...job, succeeded, reason }]);
          },
          () => {}, // offline for a moment: ask again
        );
      }
    }, WATCH_POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [watched, refreshProfile]);

  const close = (id: string) => setToasts((current) => current.filter((toast) => toast.id !== id));

  return (
    <div className="pp-toasts" role="status" aria-live="polite">
      {toasts.map((toast) => (
        <div key={toast.id} className="pp-toast" data-testid="job-toast">
          {toast.succeeded ? (
            <CircleCheck size={18} aria-hidden="true" />
          ) : (
            <CircleAlert size={18} aria-hidden="true" />
          )}
          <span>
            {toast.succeeded
              ? `Your ${toast.title} result is ready.`
              : `Your ${toast.title} job failed; its tokens were given back.`}{' '}
            {toast.reason ? (
              <>
                <span data-testid="job-toast-reason">{toast.reason}</span>{' '}
              </>
            ) : null}
            <Link to={toast.route} onClick={() => close(toast.id)}>
              {toast.succeeded ? 'View it' : `Open ${toast.title}`}
            </Link>
          </span>
          <button
            type="button"
            className="pp-icon-button pp-toast__close"
            aria-label="Dismiss"
            onClick={() => close(toast.id)}
          >
            <X size={16} aria-hidden="true" />
          </button>
        </div>
      ))}
    </div>
  );
}
