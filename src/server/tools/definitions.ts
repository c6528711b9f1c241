// A tool call's request, checked by the tool's own module (tools/<tool-id>/index.ts); its price: pricing/prices.ts.
import type { ToolId } from '../../contract/tools';
import { serverTool, type ToolInput } from './registry';
import type { PreparedTool as PreparedCall } from './server-tool';

/** A checked call of any tool. */
export type PreparedTool = PreparedCall<ToolInput>;

/** Validates `body` for `tool`; throws InputError (with the field) on the first problem. */
export const prepareTool = (tool: ToolId, body: unknown): PreparedTool => serverTool(tool).prepare(body);
