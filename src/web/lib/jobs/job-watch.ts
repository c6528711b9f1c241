// Jobs a tool page left while they were still running: the app shell follows them and says when
// they finish (a toast with a link back to the tool). Kept in sessionStorage, so a reload elsewhere in
// the app still hears about them; a tool page that opens on its own running job takes it back.
import { useSyncExternalStore } from 'react';

export type WatchedJob = { id: string; title: string; route: string };

const KEY = 'pp-watched-jobs';
const listeners = new Set<() => void>();
let jobs: WatchedJob[] = read();

function read(): WatchedJob[] {
  try {
    const parsed: unknown = JSON.parse(sessionStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as WatchedJob[]) : [];
  } catch {
    return [];
  }
}

function write(next: WatchedJob[]): void {
  jobs = next;
  try {
    sessionStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // storage full or off: the list still lives in memory for this page load
  }
  for (const listener of listeners) listener();
}

export function watchJob(job: WatchedJob): void {
  write([...jobs.filter((other) => other.id !== job.id), job]);
}

export function unwatchJob(id: string): void {
  if (jobs.some((job) => job.id === id)) write(jobs.filter((job) => job.id !== id));
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The jobs the shell follows now. */
export const useWatchedJobs = (): WatchedJob[] =>
  useSyncExternalStore(
    subscribe,
    () => jobs,
    () => jobs,
  );

/** Jobs a page follows itself now (a tool page showing its running job): the shell leaves them to it. */
const followedByPages = new Map<string, number>();

/**
 * A page follows `id` itself until the returned function is called (again is harmless); the shell
 * stops watching it meanwhile.
 */
export function followOnPage(id: string): () => void {
  followedByPages.set(id, (followedByPages.get(id) ?? 0) + 1);
  unwatchJob(id);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (followedByPages.get(id) ?? 1) - 1;
    if (left > 0) followedByPages.set(id, left);
    else followedByPages.delete(id);
  };
}

/** Whether a page follows `id` itself now. */
export const isFollowedOnPage = (id: string): boolean => followedByPages.has(id);

/**
 * The user's jobs in progress, as the server knows them (a page loaded while they run): each is
 * watched unless a page follows it or it is watched already.
 */
export function watchActiveJobs(active: readonly WatchedJob[]): void {
  const fresh = active.filter((job) => !followedByPages.has(job.id) && !jobs.some((other) => other.id === job.id));
  if (fresh.length > 0) write([...jobs, ...fresh]);
}

/** For tests: forget every watched job. */
export function forgetWatchedJobs(): void {
  followedByPages.clear();
  write([]);
}
