// Shared by the local-model benchmarks: time and peak memory of one step, and the table they print.
// Each tool's benchmark is its own file (*.bench.ts) run in its own process by bench/local-models.ts,
// so that one model's memory does not count against another's.

export type Measurement = { label: string; ms: number; peakRssMb: number };

/** Runs `work` once, sampling the process's resident memory every 10 ms; returns its result and figures. */
export async function measure<T>(label: string, work: () => Promise<T>): Promise<{ result: T; figures: Measurement }> {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  const start = performance.now();
  try {
    const result = await work();
    const ms = performance.now() - start;
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, figures: { label, ms, peakRssMb: peak / 2 ** 20 } };
  } finally {
    clearInterval(timer);
  }
}

/** Prints one row per tool and size: the whole job, the raw model inference, and their ratio. */
export function printRow(tool: string, size: string, job: Measurement, inference: Measurement) {
  const ratio = job.ms / inference.ms;
  console.log(
    [
      tool.padEnd(20),
      size.padEnd(10),
      `job ${job.ms.toFixed(0).padStart(6)} ms`,
      `inference ${inference.ms.toFixed(0).padStart(6)} ms`,
      `job/inference ${ratio.toFixed(2)}x (overhead ${((ratio - 1) * 100).toFixed(0)}%)`,
      `peak RSS ${job.peakRssMb.toFixed(0)} MB`,
    ].join('  '),
  );
}

const medianOf = (runs: Measurement[]) => {
  const sorted = [...runs].sort((a, b) => a.ms - b.ms);
  const middle = sorted[Math.floor(sorted.length / 2)] as Measurement;
  // Time is the median run's; memory the highest any run reached.
  return { ...middle, peakRssMb: Math.max(...runs.map((r) => r.peakRssMb)) };
};

/**
 * The whole job against the raw inference, run alternately `runs` times so that both see the same
 * machine (two shared cores swing single runs by a second or more); the median of each.
 */
export async function jobAgainstInference<T>(
  job: () => Promise<T>,
  inference: () => Promise<Measurement>,
  runs = 3,
): Promise<{ result: T; job: Measurement; inference: Measurement }> {
  const jobs: Measurement[] = [];
  const inferences: Measurement[] = [];
  let result: T | undefined;
  for (let i = 0; i < runs; i++) {
    const run = await measure('job', job);
    result = run.result;
    jobs.push(run.figures);
    inferences.push(await inference());
  }
  return { result: result as T, job: medianOf(jobs), inference: medianOf(inferences) };
}

/** `work`'s figures, as a producer for jobAgainstInference. */
export const measured = (label: string, work: () => Promise<unknown>) => async () =>
  (await measure(label, work)).figures;
