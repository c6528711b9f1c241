// The local engine's own process (engine-host.ts starts it, through an entry that hands this the
// tools: src/server/engine-main.ts): every model run and the pixel work around it (decoding,
// tiling, mixing, measuring, encoding) happens here, at a lower CPU priority, so that the server's
// thread, its libuv pool and its share of the two cores stay free for HTTP.
// argv[2]: the LocalEngineOptions as JSON. It exits when the server goes away.
import { readdirSync } from 'node:fs';
import os from 'node:os';
import type { ServedTools } from '../../served-tool';
import type { LocalEngineOptions } from '../local-engine';
import { createLocalProvider } from '../local-provider';
import { type EngineReply, type EngineRequest, toWire, withBuffers } from './engine-messages';

/** Nice value of every thread here: the web thread (nice 0) wins the cores whenever it wants them. */
export const ENGINE_NICE = 10;

/**
 * On Linux the nice value is per thread: threads already running (V8's helpers) are lowered one by
 * one, and every thread made later (libuv's pool, onnxruntime's, libvips') inherits it.
 */
function lowerPriority() {
  let threads: string[] = [];
  try {
    threads = readdirSync('/proc/self/task');
  } catch {
    // Not Linux: the process's priority is one value.
  }
  for (const id of threads.length > 0 ? threads.map(Number) : [0]) {
    try {
      os.setPriority(id, ENGINE_NICE);
    } catch {
      // A thread that ended meanwhile, or a system that refuses: the run goes on at normal priority.
    }
  }
}

/**
 * Serves the server's runs and prechecks of `tools` in this process until the server goes away.
 * `onRun`: told each run's seconds, ended or failed (the entry counts them for its metrics).
 */
export function runEngineProcess(
  tools: ServedTools,
  { onRun }: { onRun?: (tool: string, seconds: number) => void } = {},
): void {
  lowerPriority();

  const options = JSON.parse(process.argv[2] ?? '{}') as LocalEngineOptions;
  const engines = createLocalProvider(tools, options);
  const running = new Map<number, AbortController>();
  const send = (reply: EngineReply) => process.send?.(reply);

  process.on('message', async (request: EngineRequest) => {
    if (request.kind === 'cancel') {
      running.get(request.id)?.abort(new Error('cancelled by the server'));
      return;
    }
    const controller = new AbortController();
    running.set(request.id, controller);
    try {
      const input = withBuffers(request.input);
      if (request.kind === 'precheck') {
        await engines.precheck?.(input, controller.signal);
        send({ id: request.id, ok: true });
      } else {
        const started = performance.now();
        try {
          send({ id: request.id, ok: true, result: await engines.run(input, controller.signal) });
        } finally {
          onRun?.(input.tool, (performance.now() - started) / 1000);
        }
      }
    } catch (error) {
      send({ id: request.id, ok: false, error: toWire(error) });
    } finally {
      running.delete(request.id);
    }
  });

  // The server stopped or died: nothing here is worth finishing. A Ctrl-C in the terminal reaches
  // this process too: it is the server's to handle (its jobs in hand finish), so it is ignored here.
  // It holds nothing to flush: ended at once (SIGTERM is ignored below).
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => undefined);

  send({ ready: true });
}
