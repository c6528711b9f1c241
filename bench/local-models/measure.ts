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
