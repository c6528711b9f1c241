// The API's answers to tool calls and job reads (docs/decisions/005-tool-call-responses.md). The
// server types what it answers with these and the web reads them, so a change on one side that the
// other does not follow fails `npm run typecheck`. Types and two small guards (no zod): pages import
// them freely.
import type { ToolId } from './tools';
import type { WebhookDelivery } from './webhooks';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed';

/** One keyword of an analysis, scored from 0 to 1. */
export type Keyword = { keyword: string; score: number };

/** One colour of an analysis: its share of the image in percent (0 to 100). */
export type Color = { hex: string; name: string; percentage: number };

export type Analysis = { keywords: Keyword[]; colors: Color[] };

/** A job as the API shows it (GET /api/jobs lists these). */
export type JobView = {
  id: string;
  tool: ToolId;
  status: JobStatus;
  /** The request's price on the provider that serves it (also for a free preview). */
  cost: number;
  /** Tokens taken when the job was created: the cost, or 0 for a free preview. */
  charged: number;
  /**
   * True for a free preview: its result is (or, while queued, will be) a labelled placeholder (the
   * demo's, or a local engine's stamped one), not a result to use elsewhere.
   */
  demo: boolean;
  /** ISO 8601. */
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
  /** Succeeded image tools: the outputs' URLs on our origin (/api/files/<id>). */
  output: string[] | null;
  keywords: Keyword[] | null;
  colors: Color[] | null;
};

/**
 * While a job waits or runs: how long this tool on this provider usually takes once it runs (the
 * median of its last 20 good runs, whole seconds), or null when too few have finished to say; and
 * how many more seconds this job should take, counting the jobs ahead of it and those running beside
 * it on the worker, or null when a tool in the line has no usual time yet.
 */
type Expectation = { typicalSeconds: number | null; secondsLeft: number | null };

/**
 * Jobs ahead of a waiting one are counted up to this many: every count reads the jobs it counts,
 * and a waiting page asks again every 1.5 s, so with a deep queue each user's wait would cost a
 * read of the whole line. A queue position of QUEUE_AHEAD_COUNTED_UP_TO + 1 says "at least this many
 * ahead".
 */
export const QUEUE_AHEAD_COUNTED_UP_TO = 1000;

/**
 * GET /api/jobs/:id: the job and, while it waits (for a worker's slot, or held by one and waiting for
 * its model on the local engine), its place in the line (1: next; null once it runs).
 */
export type JobDetail = JobView & { queuePosition: number | null } & Expectation & {
    /** Only for a job whose call carried a `webhook`: its delivery's last state (contract/webhooks.ts). */
    webhook?: WebhookDelivery;
  };

/** GET /api/jobs: newest first; `next` is the `before` cursor of the next page, or null. */
export type JobList = { jobs: JobView[]; next: string | null };

/**
 * What every answer about a job carries: the balance after it, the tokens it took and whether it is
 * a free preview (JobView's `charged` and `demo`).
 */
type Charged = Pick<JobView, 'charged' | 'demo'> & { jobId: string; balance: number };

/** 200, an image tool: the list of URLs, or one URL for the one-image tools. */
export type ToolImageSuccess = Charged & { success: true; output: string[] | string | null };

/** 200, the Image Analyzer. */
export type ToolAnalysisSuccess = Charged & { success: true; keywords: Keyword[] | null; colors: Color[] | null };

/** 502: the job failed and its cost went back. */
export type ToolFailure = Charged & { success: false; error: string; refunded: true };

/** 202: still queued or running; follow it at GET /api/jobs/:id. */
export type ToolPending = Charged & {
  success: false;
  pending: true;
  status: 'queued' | 'running';
  queuePosition: number | null;
} & Expectation;

/** 400, 401, 403, 413, 422: refused, nothing charged. */
export type ToolRefusal = { success: false; error: string };

/** 402: not enough tokens; the balance the server sees. */
export type ToolNotEnoughTokens = ToolRefusal & { balance: number };

/** 429: too many calls, or the user's job cap; try again after `retryAfterSeconds` (also the Retry-After header). */
export type ToolTooManyCalls = ToolRefusal & { retryAfterSeconds: number };

/** A finished job's answer (200 or 502). */
export type ToolResult = ToolImageSuccess | ToolAnalysisSuccess | ToolFailure;

/** Every answer of POST /api/<apiPath>. */
export type ToolAnswer = ToolResult | ToolPending | ToolRefusal | ToolNotEnoughTokens | ToolTooManyCalls;

export const isPending = (answer: ToolAnswer): answer is ToolPending => 'pending' in answer && answer.pending;

export const isSuccess = (answer: ToolAnswer): answer is ToolImageSuccess | ToolAnalysisSuccess => answer.success;

/** One tool on this server: what serves it and what a call of it takes. */
export type ToolInfo = {
  id: ToolId;
  provider: string;
  /** The labelled demo serves it. */
  demo: boolean;
  /** Its results here are labelled placeholders (the demo's, or a local engine's stamped ones): nothing is taken. */
  freePreview: boolean;
  /** Tokens a call takes per unit (image or use, the contract's `costPer`): 0 for a free preview. */
  price: number;
};

/** `GET /api/tools`: which provider serves each tool on this server and its price (also in a prerendered page). */
export type ToolsInfo = { tools: ToolInfo[] };
