// The local engine as the server uses it: a provider whose runs happen in a child process of their
// own (engine-process.ts), never on the thread that serves HTTP (decision 039). The process starts
// on the first run (a server that never runs a local tool never pays for it), keeps its models
// loaded, and is started again after it dies; a run it took with it fails as retryable.
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { serverTool } from '../../../tools/registry';
import { type InferenceProvider, ProviderError, type ToolInput, type ToolResult } from '../../provider';
import { createLocalProvider, type LocalEngineOptions } from '../local-provider';
import { type EngineReply, type EngineRequest, fromWire, withBuffers } from './engine-messages';

export type EngineProcessProvider = InferenceProvider & {
  /** Ends the engine process (its runs fail); the next run starts a new one. */
  close(): Promise<void>;
  /** The engine process's pid while it runs (health, benches and tests). */
  readonly pid: number | undefined;
};

type Waiter = { resolve: (result: ToolResult | undefined) => void; reject: (error: Error) => void };
type Engine = { child: ChildProcess; ready: Promise<void> };

const ENTRY = fileURLToPath(new URL('./engine-process.ts', import.meta.url));
/** tsx, by absolute URL: the child may start from any working directory. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

export function createEngineProcessProvider(options: LocalEngineOptions): EngineProcessProvider {
  // Only for what the server knows without running anything (which tools have an engine, a check).
  const inline = createLocalProvider(options);
  const waiters = new Map<number, Waiter>();
  let nextId = 1;
  let engine: Engine | undefined;

  // The process keeps the server alive only while it owes an answer: an idle engine must not hold up
  // the exit of a script, a test run or a server shutting down.
  const holdOpen = (child: ChildProcess, hold: boolean) => {
    if (hold) {
      child.ref();
      child.channel?.ref();
    } else {
      child.unref();
      child.channel?.unref();
    }
  };

  function start(): Engine {
    const child = fork(ENTRY, [JSON.stringify(options)], {
      execArgv: ['--import', TSX],
      serialization: 'advanced',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => reject(new Error(`the local engine process exited (${code ?? signal})`)));
      child.on('message', (reply: EngineReply) => {
        if ('ready' in reply) return resolve();
        const waiter = waiters.get(reply.id);
        if (!waiter) return; // cancelled meanwhile
        waiters.delete(reply.id);
        if (waiters.size === 0) holdOpen(child, false);
        if (reply.ok) waiter.resolve(reply.result && withBuffers(reply.result));
        else waiter.reject(fromWire(reply.error));
      });
    });
    ready.catch(() => undefined);
    child.once('exit', (code, signal) => {
      if (engine?.child === child) engine = undefined;
      const lost = new ProviderError(`the local engine process stopped (${code ?? signal})`, { retryable: true });
      for (const waiter of waiters.values()) waiter.reject(lost);
      waiters.clear();
    });
    return { child, ready };
  }

  async function ask(kind: 'run' | 'precheck', input: ToolInput, signal: AbortSignal) {
    signal.throwIfAborted();
    engine ??= start();
    const { child, ready } = engine;
    const id = nextId++;
    const answer = new Promise<ToolResult | undefined>((resolve, reject) => {
      waiters.set(id, { resolve, reject });
      signal.addEventListener(
        'abort',
        () => {
          if (!waiters.delete(id)) return;
          if (waiters.size === 0) holdOpen(child, false);
          child.send({ kind: 'cancel', id } satisfies EngineRequest);
          reject(signal.reason);
        },
        { once: true },
      );
    });
    holdOpen(child, true);
    try {
      await ready;
    } catch (error) {
      waiters.delete(id);
      throw error;
    }
    child.send({ kind, id, input } satisfies EngineRequest);
    return answer;
  }

  return {
    name: 'local',
    supports: inline.supports,
    async run(input, signal) {
      const result = await ask('run', input, signal);
      if (!result) throw new Error('the local engine process answered a run without a result');
      return result;
    },
    async precheck(input, signal) {
      // Most tools foresee nothing: no round trip, and no engine process started for it.
      if (!serverTool(input.tool).localPrecheck) return;
      await ask('precheck', input, signal);
    },
    async close() {
      const child = engine?.child;
      engine = undefined;
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL'); // it ignores SIGTERM (a Ctrl-C is the server's)
      await exited;
    },
    get pid() {
      return engine?.child.pid;
    },
  };
}
