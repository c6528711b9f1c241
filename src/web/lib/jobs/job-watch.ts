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

/** For tests: forget every watched job. */
export function forgetWatchedJobs(): void {
  write([]);
}
