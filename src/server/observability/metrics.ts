// What this process has done, for Prometheus (GET /metrics, decision 079): HTTP answers by route
// pattern, tool jobs by outcome and their run time, the queue now, tokens and payments, webhook
// deliveries. Each back end has a Registry of its own (never prom-client's global one), so a test
// builds several apps in one process and each counts its own. The instruments sit behind a few
// verbs, so a place that counts says what happened in one line, and METRICS=off makes them nothing.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The prefix of our own metrics (prom-client's process defaults and the HTTP histogram keep their usual names). */
const PREFIX = 'picture_palette_';

/** How a tool job ended: its result stored, or failed and refunded (after its last try). */
export type ToolJobOutcome = 'succeeded' | 'failed';
/**
 * Tokens moving: taken by a tool call, given back (a failed job, a support refund), bought, given by
 * us (the signup bonus, an operator's grant), taken by an operator (a deduction).
 */
export type TokenMovement = 'charged' | 'refunded' | 'sold' | 'granted' | 'deducted';
/** One try of a webhook to a caller: delivered, failed with tries left, or failed for good (given up). */
export type WebhookDeliveryOutcome = 'delivered' | 'retrying' | 'failed';
/** A checkout's end: paid (credited), closed unpaid, or a payment given back (its account was deleted). */
export type PaymentOutcome = 'paid' | 'failed' | 'canceled' | 'expired' | 'refunded' | 'refund_failed';

/** The tool queue now, read when /metrics is scraped (queue-snapshot.ts). */
export type QueueSnapshot = { depth: number; oldestWaitingSeconds: number };

/** A process's registry as a scrape reads it (GET /metrics, or a listener of its own: metrics-listener.ts). */
export type MetricsSource = {
  /** false with METRICS=off: nothing is counted and GET /metrics answers 404. */
  readonly enabled: boolean;
  /** The text format's media type, and this process's metrics in it (the queue read now). */
  readonly contentType: string;
  render(): Promise<string>;
};

export type Metrics = MetricsSource & {
  httpRequest(answer: { method: string; route: string; status: number; seconds: number }): void;
  /** `runSeconds`: from the job's start (its claim) to its end; null when unknown. */
  toolJobFinished(job: { tool: string; provider: string; outcome: ToolJobOutcome; runSeconds: number | null }): void;
  tokens(movement: TokenMovement, amount: number): void;
  webhookDelivery(outcome: WebhookDeliveryOutcome): void;
  /** `count`: checkouts that ended so together (a user's stale checkouts expired at once). */
  payment(outcome: PaymentOutcome, count?: number): void;
};

/** Counts nothing: METRICS=off, and the default of code that was given no metrics (tests of one module). */
export const NO_METRICS: Metrics = {
  enabled: false,
  contentType: 'text/plain',
  render: async () => '',
  httpRequest() {},
  toolJobFinished() {},
  tokens() {},
  webhookDelivery() {},
  payment() {},
};

/** Seconds an HTTP answer took: a page or a JSON read is milliseconds, a tool call may wait up to TOOL_WAIT_SECONDS. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Seconds a tool job runs: the demo's instant answers to Replicate's minutes and the 15-minute expiry. */
const RUN_BUCKETS = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300, 900];

export function createMetrics(options: {
  enabled: boolean;
  /** The queue now, read on each scrape (one cheap indexed statement); omitted: no queue gauges. */
  queue?: () => Promise<QueueSnapshot>;
}): Metrics {
  if (!options.enabled) return NO_METRICS;
  const registry = new Registry();
  // CPU, memory, handles, GC and event-loop lag (nodejs_eventloop_lag_seconds and its percentiles).
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  const http = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP answers by method, route pattern (as routed, never the raw path) and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: HTTP_BUCKETS,
    registers,
  });
  const toolJobs = new Counter({
    name: `${PREFIX}tool_jobs_total`,
    help: 'Tool jobs ended, by tool, the provider that served them and outcome (failed jobs are refunded).',
    labelNames: ['tool', 'provider', 'outcome'] as const,
    registers,
  });
  const runTime = new Histogram({
    name: `${PREFIX}tool_job_run_seconds`,
    help: "Seconds from a tool job's start to its end, by tool and provider.",
    labelNames: ['tool', 'provider'] as const,
    buckets: RUN_BUCKETS,
    registers,
  });
  const tokens = new Counter({
    name: `${PREFIX}tokens_total`,
    help: 'Tokens charged by tool calls, refunded, sold and granted (signup bonus, operators).',
    labelNames: ['movement'] as const,
    registers,
  });
  const deliveries = new Counter({
    name: `${PREFIX}webhook_deliveries_total`,
    help: "Tries of callers' webhooks, by outcome (failed: given up for good).",
    labelNames: ['outcome'] as const,
    registers,
  });
  const payments = new Counter({
    name: `${PREFIX}payments_total`,
    help: 'Checkouts ended, by outcome.',
    labelNames: ['outcome'] as const,
    registers,
  });
  const queueDepth = new Gauge({
    name: `${PREFIX}queue_depth`,
    help: 'Tool jobs waiting in the queue (every process on the database reports the same figure).',
    registers,
  });
  const oldestWaiting = new Gauge({
    name: `${PREFIX}queue_oldest_waiting_seconds`,
    help: 'Seconds the oldest waiting tool job has waited (0 when none waits).',
    registers,
  });
  /** The queue read once per scrape, for both gauges; unknown (NaN) while the database does not answer. */
  async function readQueue() {
    if (!options.queue) return;
    const now = await options.queue().catch(() => null);
    queueDepth.set(now ? now.depth : Number.NaN);
    oldestWaiting.set(now ? now.oldestWaitingSeconds : Number.NaN);
  }
  return {
    enabled: true,
    contentType: registry.contentType,
    async render() {
      await readQueue();
      return registry.metrics();
    },
    httpRequest: ({ method, route, status, seconds }) => http.observe({ method, route, status }, seconds),
    toolJobFinished({ tool, provider, outcome, runSeconds }) {
      toolJobs.inc({ tool, provider, outcome });
      if (runSeconds !== null) runTime.observe({ tool, provider }, runSeconds);
    },
    tokens(movement, amount) {
      if (amount > 0) tokens.inc({ movement }, amount);
    },
    webhookDelivery: (outcome) => deliveries.inc({ outcome }),
    payment(outcome, count = 1) {
      if (count > 0) payments.inc({ outcome }, count);
    },
  };
}

/**
 * The local engine process's own (engine-main.ts): its CPU and memory (the models live there) and
 * each model run's seconds by tool, the run alone, without the queue's wait or the worker's
 * decoding and storing around it. The jobs themselves are counted in the worker that ran them.
 */
export type EngineMetrics = MetricsSource & { modelRun(tool: string, seconds: number): void };

export function createEngineMetrics(): EngineMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const runs = new Histogram({
    name: `${PREFIX}engine_run_seconds`,
    help: 'Seconds the local engine took to run a model, by tool (failed runs too).',
    labelNames: ['tool'] as const,
    buckets: RUN_BUCKETS,
    registers: [registry],
  });
  return {
    enabled: true,
    contentType: registry.contentType,
    render: () => registry.metrics(),
    modelRun: (tool, seconds) => runs.observe({ tool }, seconds),
  };
}
