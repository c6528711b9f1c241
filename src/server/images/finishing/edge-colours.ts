// Clean edges (issue 58, decision 080): a cut-out's soft edge (hair, fur, motion blur) keeps some of
// the old background's colour in its pixels, a halo once set on another background. The foreground's
// own colour is estimated there and put in their place (edge-colours-thread.mjs, blur-fusion); the
// pixel loop runs in a worker thread of its own, started on first use and idle between cut-outs.
import { Worker } from 'node:worker_threads';

/** 8-bit RGBA pixels, row by row. */
export type RgbaPixels = { data: Uint8Array; width: number; height: number };

type Reply = { id: number; rgba?: Uint8Array; error?: string };
type Waiter = { resolve: (rgba: Uint8Array) => void; reject: (error: Error) => void };

let thread: { worker: Worker; waiters: Map<number, Waiter> } | undefined;
let nextId = 1;

function edgeThread() {
  if (thread) return thread;
  const worker = new Worker(new URL('./edge-colours-thread.mjs', import.meta.url));
  const waiters = new Map<number, Waiter>();
  const current = { worker, waiters };
  // Idle, the thread must not keep a script, a test run or a stopping server alive.
  worker.unref();
  worker.on('message', ({ id, rgba, error }: Reply) => {
    const waiter = waiters.get(id);
    waiters.delete(id);
    if (waiters.size === 0) worker.unref();
    if (!waiter) return;
    if (rgba) waiter.resolve(rgba);
    else waiter.reject(new Error(`cleaning the cut-out's edges failed: ${error}`));
  });
  const stopped = (error: Error) => {
    // A dead thread is forgotten (the next cut-out starts another); what it owed fails.
    if (thread === current) thread = undefined;
    for (const waiter of waiters.values()) waiter.reject(new Error(`the edge-colour thread stopped: ${error.message}`));
    waiters.clear();
  };
  worker.on('error', stopped);
  worker.on('exit', (code) => stopped(new Error(`exit code ${code}`)));
  thread = current;
  return current;
}

/**
 * `image` with the colours of its soft edge (alpha between about 2% and 98%) cleaned of the old
 * background's; opaque and transparent pixels are unchanged. The pixels are copied to the thread.
 */
export function withCleanEdges(image: RgbaPixels): Promise<RgbaPixels> {
  const { worker, waiters } = edgeThread();
  const id = nextId++;
  const rgba = new Uint8Array(image.data);
  return new Promise((resolve, reject) => {
    waiters.set(id, { resolve: (data) => resolve({ data, width: image.width, height: image.height }), reject });
    worker.ref();
    worker.postMessage({ id, rgba, width: image.width, height: image.height }, [rgba.buffer]);
  });
}
