// The API's answers to tool calls and job reads (docs/decisions/005-tool-call-responses.md). The
// server types what it answers with these and the web reads them, so a change on one side that the
// other does not follow fails `npm run typecheck`. The types are those of the zod schemas of
// api-response-schemas.ts (also the OpenAPI document's), imported as types only: pages import this
// module freely and load no zod.
import type { z } from 'zod';
import type * as schemas from './api-response-schemas';
import type { ToolId } from './tools';

export type JobStatus = z.output<typeof schemas.JOB_STATUS>;

/** One keyword of an analysis, scored from 0 to 1. */
export type Keyword = z.output<typeof schemas.KEYWORD>;

/** One colour of an analysis: its share of the image in percent (0 to 100). */
export type Color = z.output<typeof schemas.COLOR>;

export type Analysis = z.output<typeof schemas.ANALYSIS>;

/** A job as the API shows it (GET /api/jobs lists these). */
export type JobView = z.output<typeof schemas.JOB_VIEW>;

/**
 * While a job waits or runs: how long this tool on this provider usually takes once it runs, and
 * how many more seconds this job should take (api-response-schemas.ts EXPECTATION).
 */
export type Expectation = z.output<typeof schemas.EXPECTATION>;

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
export type JobDetail = z.output<typeof schemas.JOB_DETAIL>;

/** GET /api/jobs: newest first; `next` is the `before` cursor of the next page, or null. */
export type JobList = { jobs: JobView[]; next: string | null };

/** 200, an image tool: the list of URLs, or one URL for the one-image tools. */
export type ToolImageSuccess = z.output<typeof schemas.TOOL_IMAGE_SUCCESS>;

/** 200, the Image Analyzer. */
export type ToolAnalysisSuccess = z.output<typeof schemas.TOOL_ANALYSIS_SUCCESS>;

/** 502: the job failed and its cost went back. */
export type ToolFailure = z.output<typeof schemas.TOOL_FAILURE>;

/** 202: still queued or running; follow it at GET /api/jobs/:id. */
export type ToolPending = z.output<typeof schemas.TOOL_PENDING>;

/** 400, 401, 403, 413, 422: refused, nothing charged. */
export type ToolRefusal = z.output<typeof schemas.TOOL_REFUSAL>;

/** 402: not enough tokens; the balance the server sees. */
export type ToolNotEnoughTokens = z.output<typeof schemas.TOOL_NOT_ENOUGH_TOKENS>;

/** 429: too many calls, or the user's job cap; try again after `retryAfterSeconds` (also the Retry-After header). */
export type ToolTooManyCalls = z.output<typeof schemas.TOOL_TOO_MANY_CALLS>;

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
