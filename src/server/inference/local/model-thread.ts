// A model that runs in its own worker thread, so that its inference never blocks the event loop
// (ISNet's onnxruntime session, nsfwjs on TensorFlow.js's wasm backend). The worker is a plain .mjs
// file (workers do not inherit the TypeScript loader). It answers { ready } or { loadError } once
// loaded, then one reply per message, { error } when that message failed.
import { type Transferable, Worker, type WorkerOptions } from 'node:worker_threads';

export type ModelThread = {
  /** Posts `message` and resolves with the thread's reply. One call at a time (the model gate). */
  ask<R extends object>(message: unknown, transfer?: readonly Transferable[]): Promise<R>;
  close(): Promise<void>;
};

type Reply = { ready: true } | { loadError: string } | { error: string } | object;

/**
 * Starts the thread of `name` from `url`; resolves once its model is loaded.
 * `onStop`: the thread died, so its owner can drop it and load a new one next time.
 */
export async function startModelThread(
  name: string,
  url: URL,
  options: WorkerOptions,
  onStop?: () => void,
): Promise<ModelThread> {
  const worker = new Worker(url, options);
  let pending: { resolve: (reply: Reply) => void; reject: (error: Error) => void } | undefined;
  let failure: Error | undefined;
  // The thread keeps the process alive only while it owes a reply: an idle model must not hold up
  // the exit of a script, a test run or a server shutting down.
  const next = () =>
    new Promise<Reply>((resolve, reject) => {
      if (failure) return reject(failure);
      pending = { resolve, reject };
      worker.ref();
    });
  const settle = () => {
    pending = undefined;
    worker.unref();
  };
  worker.on('message', (reply: Reply) => {
    pending?.resolve(reply);
    settle();
  });
  const fail = (error: Error) => {
    failure = new Error(`the ${name} thread stopped: ${error.message}`);
    onStop?.();
    pending?.reject(failure);
    settle();
  };
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));

  const ready = await next();
  if ('loadError' in ready) {
    await worker.terminate();
    throw new Error(`could not load ${name}: ${ready.loadError}`);
  }
  return {
    async ask<R extends object>(message: unknown, transfer?: readonly Transferable[]) {
      const reply = next();
      worker.postMessage(message, transfer);
      const result = await reply;
      if ('error' in result) throw new Error(`${name} failed: ${result.error}`);
      return result as R;
    },
    async close() {
      await worker.terminate();
    },
  };
}
