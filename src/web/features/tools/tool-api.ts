// The tool calls (POST /api/<apiPath>), following a job the server is still running
// (GET /api/jobs/:id), and which provider serves each tool (GET /api/tools).
// Bodies and answers are the contract's types (type-only imports: the request schemas' zod stays out
// of the pages).
import type { ToolRequest } from '../../../contract/tool-requests';
import type { JobDetail, ToolAnswer } from '../../../contract/tool-responses';
import type { ToolDefinition, ToolId } from '../../../contract/tools';
import { getJson, postJson } from '../../lib/api';

/** How often a running job is asked about at most (a read that waited for its finish is followed at once). */
export const JOB_POLL_MS = 1_500;

/** The first read of a job the server accepted: soon, since a quick job is done in a second or two. */
export const FIRST_LOOK_MS = 500;

/**
 * Seconds a job read may wait on the server for the job's finish (GET /api/jobs/:id, Prefer: wait):
 * the result shows as it is ready, and the place in the line is told afresh every two seconds.
 */
export const JOB_FOLLOW_WAIT_SECONDS = 2;

/**
 * Seconds the server may hold a tool call before answering 202 with the job id: none, so that
 * "Sending your request…" ends as soon as the server has accepted the job, and the page says where
 * the job stands from then on (decision 042).
 */
export const TOOL_CALL_WAIT_SECONDS = 0;

/** How long to wait before sending a call again whose connection failed. */
export const TOOL_CALL_RETRY_MS = 1_000;

/** A fresh Idempotency-Key (getRandomValues also works outside secure contexts, unlike randomUUID). */
function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * One tool call. Its Idempotency-Key is sent again with a single retry when the connection fails
 * (the server may have charged and started the job before the answer was lost): the retry gets
 * that job back instead of paying twice. A second failure rejects, for the page to report.
 */
export async function callTool<Id extends ToolId>(
  tool: ToolDefinition & { id: Id },
  body: Omit<ToolRequest<Id>, 'userId'>,
  userId: string | undefined,
) {
  const headers = { Prefer: `wait=${TOOL_CALL_WAIT_SECONDS}`, 'Idempotency-Key': newIdempotencyKey() };
  const send = () => postJson<ToolAnswer>(`/api${tool.apiPath}`, { ...body, userId }, { headers });
  try {
    return await send();
  } catch {
    await new Promise((resolve) => setTimeout(resolve, TOOL_CALL_RETRY_MS));
    return send();
  }
}

/** A job's view; `waitSeconds`: the server may hold the answer that long for the job's finish. */
export const getJob = (id: string, waitSeconds = 0) =>
  getJson<JobDetail>(
    `/api/jobs/${encodeURIComponent(id)}`,
    waitSeconds > 0 ? { headers: { Prefer: `wait=${waitSeconds}` } } : {},
  );

// Which provider serves each tool lives in lib/tools-info.ts (every page that states a price reads it).
export { forgetToolsInfo, toolInfoOf } from '../../lib/tools-info';

/** A data URL without its `data:...;base64,` prefix (the spec's form for two tools). */
export const stripDataUrlPrefix = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(',') + 1);
