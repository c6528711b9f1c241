// Shared by bench/load.ts and bench/soak.ts: the server under load in its own process
// (load/server.ts), autocannon calling a tool from many connections, each one user's tab, their
// numeric options and the invariants a run must keep.
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';

/** A started server: its port (0 for a worker-only process), the users' session cookies, its files folder. */
export type Ready = { port: number; origin: string; cookies: string[]; dataDir: string };
/** Which roles a server process runs (as `npm start`, `--web`, `--worker`). */
export type Role = 'both' | 'web' | 'worker';
export type Check = {
  jobs: number;
  debits: number;
  succeeded: number;
  mismatches: number;
  negativeBalances: number;
  rssMb: number;
};
export type Memory = { rssMb: number; heapMb: number };

export type LoadServer = {
  ready: Ready;
  pid: number;
  /** The server's memory after a full garbage collection. */
  memory(): Promise<Memory>;
  /** Stops taking requests, lets accepted jobs finish, checks the database, and exits. */
  check(): Promise<Check>;
  /** A cluster's other process: stops (its jobs in hand finish) and exits. */
  stop(): Promise<void>;
};

const reply = <T>(child: ChildProcess) =>
  new Promise<T>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`server exited with ${code}`));
    child.once('exit', onExit);
    child.once('message', (m) => {
      child.off('exit', onExit);
      resolve(m as T);
    });
  });

/** The server in a process of its own; a cluster's further processes get `role` and the first one's `dataDir`. */
export async function startLoadServer(
  databaseUrl: string,
  users: number,
  tokens: number,
  cluster: { role: Role; dataDir?: string } = { role: 'both' },
): Promise<LoadServer> {
  const argv = [
    databaseUrl,
    String(users),
    String(tokens),
    cluster.role,
    ...(cluster.dataDir ? [cluster.dataDir] : []),
  ];
  const child = fork(path.join(import.meta.dirname, 'server.ts'), argv, {
    // BENCH_CPU_PROF=<dir>: the server writes a CPU profile there when it exits (open it in Chrome's
    // DevTools or summarise it): where a tool call's server time goes.
    execArgv: [
      '--import',
      'tsx',
      '--expose-gc',
      ...(process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : []),
    ],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await reply<Ready>(child);
  const ask = <T>(message: string) => {
    const answer = reply<T>(child);
    child.send(message);
    return answer;
  };
  return {
    ready,
    pid: child.pid ?? 0,
    memory: () => ask<Memory>('rss'),
    check: () => ask<Check>('check'),
    stop: async () => {
      await ask<string>('stop');
    },
  };
}

/**
 * POST /api/generate-image from `connections` connections for `seconds`; answers counted by status.
 * A cluster's second web process gets its own call, with `port` and the connections numbered on from
 * `firstConnection` (other users' tabs, other addresses).
 */
export async function hammer(
  ready: Ready,
  connections: number,
  seconds: number,
  port = ready.port,
  firstConnection = 0,
) {
  let connection = firstConnection;
  const url = `http://127.0.0.1:${port}/api/generate-image`;
  // Unsummarised (its latency histogram kept), so that loads on several processes combine exactly.
  const run = (await autocannon({
    url,
    skipAggregateResult: true,
    connections,
    duration: seconds,
    // A call may wait for its job up to the server's TOOL_WAIT_SECONDS (55 s) before the 202.
    timeout: 60,
    method: 'POST',
    body: JSON.stringify({ prompt: 'load', numOutputs: 1 }),
    headers: { 'content-type': 'application/json', origin: ready.origin },
    // Each connection is one user's browser tab: its session cookie and its own address.
    setupClient: (client) => {
      const n = connection++;
      client.setHeaders({
        'content-type': 'application/json',
        origin: ready.origin,
        cookie: ready.cookies[n % ready.cookies.length] as string,
        'x-forwarded-for': `10.9.${(n >> 8) & 255}.${n & 255}`,
      });
    },
  })) as unknown as RawRun;
  const result = summary([run], { url, connections });
  const codes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, (stats as { count: number }).count]),
  );
  const otherCodes = Object.entries(codes)
    .filter(([code]) => code !== '200' && code !== '402')
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    run,
    result,
    codes,
    ok: codes['200'] ?? 0,
    refused: codes['402'] ?? 0,
    other: otherCodes + result.errors + result.timeouts,
  };
}

export type Load = Awaited<ReturnType<typeof hammer>>;

/** One autocannon run made with `skipAggregateResult`: its latencies still a histogram. */
type RawRun = { duration: number; totalCompletedRequests: number; statusCodeStats: Record<string, { count: number }> };

/**
 * autocannon's summary of one or more raw runs (its `aggregateResult`): latency percentiles over
 * all their requests together; req/s as all their answers over the longest run's seconds (autocannon's
 * own mean of per-second samples needs the samples, which only an unsplit run keeps).
 */
function summary(runs: RawRun[], options: { url: string; connections: number }): autocannon.Result {
  const { aggregateResult } = autocannon as unknown as {
    aggregateResult(runs: RawRun[], options: { url: string; connections: number }): autocannon.Result;
  };
  // It adds the later runs' status counts into the first's: each gets copies.
  const result = aggregateResult(structuredClone(runs), options);
  const seconds = Math.max(...runs.map((run) => run.duration));
  result.requests.average = runs.reduce((answers, run) => answers + run.totalCompletedRequests, 0) / seconds;
  return result;
}

/** Loads on several web processes at once as one: counts summed, latency percentiles over all their requests. */
export function combined(loads: Load[]) {
  const sum = (f: (l: Load) => number) => loads.reduce((total, l) => total + f(l), 0);
  const codes: Record<string, number> = {};
  for (const load of loads) for (const [code, n] of Object.entries(load.codes)) codes[code] = (codes[code] ?? 0) + n;
  return {
    result: summary(
      loads.map((load) => load.run),
      { url: 'combined', connections: sum((l) => l.result.connections) },
    ),
    codes,
    ok: sum((l) => l.ok),
    refused: sum((l) => l.refused),
    other: sum((l) => l.other),
  };
}

/** A numeric option of the command line (`--seconds 30`), or `fallback` when not given. */
export function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

/**
 * What a run broke, none when it held: any answer but 200 and 402 (or a socket error or timeout),
 * and the ledger at rest: every 200 one job, every job one debit and succeeded, no balance below zero.
 */
export function brokenInvariants(run: { ok: number; other: number }, check: Check): string[] {
  return [
    run.other > 0 && `${run.other} other answers and errors`,
    check.mismatches > 0 && `${check.mismatches} ledger mismatches`,
    check.negativeBalances > 0 && `${check.negativeBalances} balances below zero`,
    check.debits !== check.jobs && `${check.debits} debits for ${check.jobs} jobs`,
    check.succeeded !== check.jobs && `${check.succeeded} of ${check.jobs} jobs succeeded`,
    check.jobs < run.ok && `${run.ok} calls answered 200 but ${check.jobs} jobs`,
  ].filter((broken): broken is string => typeof broken === 'string');
}

/** The unit of /proc's CPU times (USER_HZ), as the system states it; 100 on every common Linux. */
function clockTicksPerSecond(): number {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
}

/**
 * CPU time used so far, in ms, by the given processes and by every PostgreSQL process on this
 * machine (Linux /proc; null elsewhere): a run's cost per call, steadier than its throughput when
 * the server, PostgreSQL and autocannon share two cores.
 */
export function cpuMs(pids: number[]): { servers: number; postgres: number } | null {
  if (!existsSync('/proc/self/stat')) return null;
  const ticksPerMs = clockTicksPerSecond() / 1000;
  const used = (pid: number | string) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      return (Number(fields[11]) + Number(fields[12])) / ticksPerMs; // utime, stime
    } catch {
      return 0; // gone meanwhile
    }
  };
  const postgres = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
      } catch {
        return false;
      }
    });
  return {
    servers: pids.reduce((sum, pid) => sum + used(pid), 0),
    postgres: postgres.reduce((sum, pid) => sum + used(pid), 0),
  };
}
