// How long the server's thread kept callbacks waiting lately (health's `eventLoop`): the measure
// of a server that answers while it works. A delay of seconds means something ran on the thread
// that serves HTTP (a model, a decode, a pixel loop) and every request waited behind it.
import { monitorEventLoopDelay } from 'node:perf_hooks';

/** Each window's figures are kept for one more window, so a reader polling often misses no peak. */
const WINDOW_MS = 10_000;

export type EventLoopDelay = { p99Ms: number; maxMs: number; windowSeconds: number };

let watcher: { recent(): EventLoopDelay } | undefined;

/** This process's watcher, started on first use (one per process: there is one event loop). */
export function eventLoopDelays(): { recent(): EventLoopDelay } {
  watcher ??= watchEventLoop();
  return watcher;
}

function watchEventLoop(): { recent(): EventLoopDelay } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let previous = { p99: 0, max: 0 };
  const rotate = setInterval(() => {
    previous = { p99: histogram.percentile(99), max: histogram.max };
    histogram.reset();
  }, WINDOW_MS);
  rotate.unref();
  const ms = (ns: number) => Math.round(ns / 1e6);
  return {
    recent: () => ({
      p99Ms: ms(Math.max(previous.p99, histogram.count > 0 ? histogram.percentile(99) : 0)),
      maxMs: ms(Math.max(previous.max, histogram.count > 0 ? histogram.max : 0)),
      windowSeconds: (2 * WINDOW_MS) / 1000,
    }),
  };
}
