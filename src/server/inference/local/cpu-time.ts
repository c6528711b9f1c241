// Test and benchmark helper: where a piece of work ran, from CPU time rather than wall time. A slow
// or busy machine stretches the wall time and the event loop's gaps, but not how the CPU seconds of
// the work split between this thread, the process's other threads and a child process.
import { readFileSync } from 'node:fs';

const CLOCK_TICKS = 100; // USER_HZ on Linux: the unit of /proc/<pid>/stat's times

const seconds = ({ user, system }: NodeJS.CpuUsage) => (user + system) / 1e6;

/** CPU seconds a running process has used so far, every thread of it (Linux /proc). */
export function processCpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * Runs `work` and answers the CPU seconds it took on this thread (the one that runs the event loop)
 * and in this whole process (its worker threads, libuv's and V8's too).
 */
export async function cpuSecondsOf(work: () => Promise<unknown>): Promise<{ thisThread: number; process: number }> {
  const [thread, all] = [process.threadCpuUsage(), process.cpuUsage()];
  await work();
  return { thisThread: seconds(process.threadCpuUsage(thread)), process: seconds(process.cpuUsage(all)) };
}
