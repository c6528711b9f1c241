// The local engine as the server uses it: a provider whose runs happen in a child process of their
// own (engine-process.ts), never on the thread that serves HTTP (decision 039). The process starts
// on the first run (a server that never runs a local tool never pays for it), keeps its models
// loaded, and is started again after it dies; a run it took with it fails as retryable. The
// process's entry is the caller's (src/server/engine-main.ts: engine-process.ts with the same tools).
import { type ChildProcess, fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type InferenceProvider, ProviderError, type ProviderInput, type ToolResult } from '../../provider';
import { type ServedTools, servedToolFinder } from '../../served-tool';
import type { LocalEngineOptions } from '../local-engine';
import { createLocalProvider } from '../local-provider';
import { type EngineReply, type EngineRequest, fromWire, withBuffers } from './engine-messages';

export type EngineProcessProvider = InferenceProvider & {
  /** Ends the engine process (its runs fail); the next run starts a new one. */
  close(): Promise<void>;
  /** The engine process's pid while it runs (health, benches and tests). */
  readonly pid: number | undefined;
};

type Waiter = { resolve: (result: ToolResult | undefined) => void; reject: (error: Error) => void };
type Engine = { child: ChildProcess; ready: Promise<void> };

/** tsx, by absolute URL (the child may start from any working directory): for an entry in TypeScript. */
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

/** What the engine process serves: the tools, and the entry that runs runEngineProcess with them. */
export type EngineProcessSetup = {
  /** The registry's list (tools/registry.ts): which tools have an engine, which a check. */
  tools: ServedTools;
  /**
   * The process's main module: it calls engine-process.ts's runEngineProcess with the same tools. A
   * `.ts` entry (the sources) runs through tsx; the server's build (dist/server) runs as it is.
   */
  entry: URL;
  /** Variables added to the process's environment (its metrics listener's setting: system.ts). */
  env?: Record<string, string>;
};

export function createEngineProcessProvider(
  { tools, entry, env }: EngineProcessSetup,
  options: LocalEngineOptions,
): EngineProcessProvider {
  // Only for what the server knows without running anything (which tools have an engine, a check).
  const inline = createLocalProvider(tools, options);
  const toolFor = servedToolFinder(tools);
  const entryPath = fileURLToPath(entry);
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
    const child = fork(entryPath, [JSON.stringify(options)], {
      execArgv: entryPath.endsWith('.ts') ? ['--import', TSX] : ['--enable-source-maps'],
      serialization: 'advanced',
      env: { ...process.env, ...env },
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

  async function ask(kind: 'run' | 'precheck', input: ProviderInput, signal: AbortSignal) {
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
      if (!toolFor(input.tool).localPrecheck) return;
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
