// How long a job will still take and where it stands, from what runs now: the jobs its provider's
// workers hold and the queued jobs ahead of it, played forward. Each worker runs `slotsPerWorker`
// jobs at once (WORKER_CONCURRENCY); on the local engine a model runs one job at a time (the model
// gate: a job holding a slot may still wait for its model) and the runs going at once share the
// machine's cores. A pure function: job-progress.ts reads the line, this says what it means.

/**
 * The local engine runs one job per model at a time, on the cores every run going at once shares
 * (inference/local/model-gate.ts); other providers run a worker's jobs side by side.
 */
export const runsOnePerModel = (provider: string) => provider === 'local';

/** A job a worker holds now. */
export type HeldJob = {
  id: string;
  tool: string;
  /** The worker's lease (null: a process without one). */
  worker: string | null;
  /**
   * Seconds since it got its model (the end of the run of its tool before it on its worker, or
   * its start): how much of its run is done, at full speed.
   */
  heldFor: number;
};

/** A job waiting for a slot, in the order the queue hands them out. */
export type QueuedJob = { id: string; tool: string };

export type Line = {
  /** Held by a worker, oldest first: the order in which each model serves them. */
  held: HeldJob[];
  /** Waiting for a slot, in queue order; the job asked about is among them while it waits. */
  queued: QueuedJob[];
};

export type WorkerShape = {
  slotsPerWorker: number;
  /** The local engine: one run at a time per model (per tool), the cores shared by the runs going at once. */
  oneRunPerModel: boolean;
};

export type WaitEstimate = {
  /** While it waits (for a slot, or held and waiting for its model): 1 + the jobs that start before it. */
  position: number | null;
  /** Seconds until it is expected to finish; null when a tool in the line has no usual time yet. */
  secondsLeft: number | null;
};

/** A run past its usual time is taken to need this share of it still: it is not done yet. */
const OVERDUE_SHARE = 0.1;

type Sim = {
  id: string;
  tool: string;
  worker: string | null;
  /** Seconds of work left at full speed. */
  work: number;
  /** When it got its model (simulated seconds from now); null while it waits. */
  startedAt: number | null;
  waitingAtStart: boolean;
};

/**
 * Where `jobId` stands and when it should be done. `typical(tool)`: the seconds a run of the tool
 * takes alone (null: not known yet; the line is then played with 1 s runs, for the position alone).
 */
export function estimateWait(
  jobId: string,
  line: Line,
  shape: WorkerShape,
  typical: (tool: string) => number | null,
): WaitEstimate {
  const known = [...line.held, ...line.queued].every((job) => typical(job.tool) !== null);
  const runSeconds = (tool: string) => (known ? (typical(tool) ?? 1) : 1);
  const modelKey = (job: Sim) => (shape.oneRunPerModel ? `${job.worker}\u0000${job.tool}` : job.id);

  const active: Sim[] = [];
  /** The jobs in the order they got their model (or, on other providers, their slot). */
  const started: Sim[] = [];
  const busyModels = new Set<string>();
  const start = (job: Sim, at: number) => {
    if (busyModels.has(modelKey(job))) return;
    busyModels.add(modelKey(job));
    job.startedAt = at;
    started.push(job);
  };
  for (const held of line.held) {
    const work = runSeconds(held.tool);
    const job: Sim = { ...held, work, startedAt: null, waitingAtStart: false };
    start(job, 0);
    if (job.startedAt === null) job.waitingAtStart = true;
    else job.work = Math.max(work - held.heldFor, work * OVERDUE_SHARE);
    active.push(job);
  }
  const workers = [...new Set(line.held.map((job) => job.worker))];
  if (workers.length === 0) workers.push(null);
  const queue = line.queued.map((job) => ({ ...job, waitingAtStart: true }));
  const finished = new Map<string, number>();

  /** Free slots take queued jobs, in queue order, on the worker with the fewest jobs. */
  const fillSlots = (at: number) => {
    for (;;) {
      const next = queue[0];
      if (!next) return;
      const loads = workers.map((worker) => ({ worker, load: active.filter((job) => job.worker === worker).length }));
      const free = loads.filter(({ load }) => load < shape.slotsPerWorker).sort((a, b) => a.load - b.load)[0];
      if (!free) return;
      queue.shift();
      const job: Sim = { ...next, worker: free.worker, work: runSeconds(next.tool), startedAt: null };
      active.push(job);
      start(job, at);
    }
  };

  let now = 0;
  fillSlots(now);
  while (!finished.has(jobId)) {
    const running = active.filter((job) => job.startedAt !== null);
    if (running.length === 0) break; // the job is not in the line
    // Each running job's share of the cores: on the local engine the runs of one worker share them.
    const speed = (job: Sim) =>
      shape.oneRunPerModel ? 1 / running.filter((other) => other.worker === job.worker).length : 1;
    const step = Math.min(...running.map((job) => job.work / speed(job)));
    now += step;
    for (const job of running) job.work -= step * speed(job);
    for (const done of running.filter((job) => job.work <= 1e-9)) {
      finished.set(done.id, now);
      active.splice(active.indexOf(done), 1);
      busyModels.delete(modelKey(done));
    }
    // A freed model goes to the oldest job waiting for it on its worker, a freed slot to the queue.
    for (const job of active) if (job.startedAt === null) start(job, now);
    fillSlots(now);
  }

  const end = finished.get(jobId);
  const subject = started.find((job) => job.id === jobId);
  // Its place: 1 + the jobs waiting now that get their slot and model before it does.
  const ahead = subject ? started.slice(0, started.indexOf(subject)).filter((job) => job.waitingAtStart) : [];
  return {
    position: subject?.waitingAtStart ? 1 + ahead.length : null,
    secondsLeft: known && end !== undefined ? Math.max(1, Math.round(end)) : null,
  };
}
